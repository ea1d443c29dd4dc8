package io.gpuforge.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Searches files, bytes and lines for secrets, byte for byte (a secret's UTF-8 bytes anywhere: text, a SQLite page,
 * a WAL frame). A secret of digits only (a one-time code) counts where no digit is beside it, so a timestamp that
 * holds the same digits is not a finding. What it found is named by secret and place, never by value.
 */
public final class SecretScan {

    private final Map<String, Pattern> secrets = new LinkedHashMap<>();
    /** The same patterns over bytes read as ISO-8859-1 (one char a byte), made once. */
    private final Map<String, Pattern> inBytes = new LinkedHashMap<>();
    private final List<String> found = new ArrayList<>();
    private int files;
    private long bytes;

    /** A secret to search for, with the name a finding gives it. */
    public SecretScan secret(String name, String value) {
        String q = Pattern.quote(value);
        Pattern p = Pattern.compile(value.matches("[0-9]+") ? "(?<![0-9])" + q + "(?![0-9])" : q);
        secrets.put(name, p);
        inBytes.put(name, Pattern.compile(new String(p.pattern().getBytes(StandardCharsets.UTF_8),
                StandardCharsets.ISO_8859_1)));
        return this;
    }

    /** Every regular file under {@code root} (links not followed). */
    public void tree(String what, Path root) throws IOException {
        try (Stream<Path> all = Files.walk(root)) {
            for (Path p : (Iterable<Path>) all::iterator) {
                if (Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) {
                    files++;
                    bytes(what + ": " + root.relativize(p), Files.readAllBytes(p));
                }
            }
        }
    }

    /** One file's or one buffer's bytes. */
    public void bytes(String where, byte[] content) {
        bytes += content.length;
        // ISO-8859-1 maps each byte to one char, so the search is over the bytes themselves
        String text = new String(content, StandardCharsets.ISO_8859_1);
        inBytes.forEach((name, latin) -> {
            if (latin.matcher(text).find()) {
                found.add(name + " in " + where);
            }
        });
    }

    /** A line shown to the user (progress, a message). */
    public void text(String where, String line) {
        secrets.forEach((name, p) -> {
            if (p.matcher(line).find()) {
                found.add(name + " in " + where + ": " + line);
            }
        });
    }

    public List<String> found() {
        return List.copyOf(found);
    }

    public int files() {
        return files;
    }

    public long bytesScanned() {
        return bytes;
    }

    /** What was scanned and found, for the record (never a secret's value). */
    public void report(Path file, int lines) {
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            Files.writeString(file, "secrets: " + secrets.size() + " (" + String.join(", ", secrets.keySet()) + ")\n"
                    + "files scanned: " + files + ", bytes: " + bytes + ", lines: " + lines + "\n"
                    + "found: " + found.size() + "\n" + String.join("\n", found) + "\n");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
