package io.gpuforge.diagnose;

import io.gpuforge.testing.SharedFixtures;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The cases the diagnosis is held to: the real ones in {@code ../shared/fixtures/diagnose} (their causes read from
 * its README's table) and the ones written here in {@code src/test/resources/diagnose}. Their leading {@code # }
 * lines say where they come from and are dropped, as a user would not paste them.
 */
public final class DiagnoseCases {

    private static final Pattern ROW = Pattern.compile("^\\| (\\S+\\.txt) \\| ([a-z0-9-]+) \\|$", Pattern.MULTILINE);

    private DiagnoseCases() {
    }

    /** The fixture files and their causes, as the fixtures' README lists them. */
    public static Map<String, String> fixtureCauses() throws IOException {
        String readme = new String(SharedFixtures.read("diagnose/README.md"), StandardCharsets.UTF_8);
        Map<String, String> out = new LinkedHashMap<>();
        Matcher m = ROW.matcher(readme);
        while (m.find()) {
            out.put(m.group(1), m.group(2));
        }
        return out;
    }

    /** A fixture's text as a user would paste it. */
    public static String fixture(String file) throws IOException {
        return withoutHeader(new String(SharedFixtures.read("diagnose/" + file), StandardCharsets.UTF_8));
    }

    /** A case written here, as a user would paste it. */
    public static String written(String file) throws IOException {
        try (InputStream in = Objects.requireNonNull(DiagnoseCases.class.getResourceAsStream("/diagnose/" + file),
                file)) {
            return withoutHeader(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        }
    }

    /** Every case written here, by file name. */
    public static java.util.List<String> writtenFiles() throws IOException {
        java.nio.file.Path dir;
        try {
            dir = java.nio.file.Path.of(Objects.requireNonNull(DiagnoseCases.class.getResource("/diagnose/README.md"))
                    .toURI()).getParent();
        } catch (java.net.URISyntaxException e) {
            throw new IOException(e);
        }
        try (java.util.stream.Stream<java.nio.file.Path> files = java.nio.file.Files.list(dir)) {
            return files.map(f -> f.getFileName().toString()).filter(f -> f.endsWith(".txt")).sorted().toList();
        }
    }

    /** The cause a written case stands for (its {@code # cause:} line). */
    public static String writtenCause(String file) throws IOException {
        try (InputStream in = Objects.requireNonNull(DiagnoseCases.class.getResourceAsStream("/diagnose/" + file))) {
            Matcher m = Pattern.compile("^# causes?: ([a-z0-9-]+)", Pattern.MULTILINE)
                    .matcher(new String(in.readAllBytes(), StandardCharsets.UTF_8));
            return m.find() ? m.group(1) : "";
        }
    }

    /**
     * The causes a written case stands for, in rank order: its {@code # causes: a first, b also seen} line, or its
     * {@code # cause: a} line ({@code unknown}: none).
     */
    public static java.util.List<String> writtenRanking(String file) throws IOException {
        try (InputStream in = Objects.requireNonNull(DiagnoseCases.class.getResourceAsStream("/diagnose/" + file))) {
            Matcher m = Pattern.compile("^# causes?: (.+)$", Pattern.MULTILINE)
                    .matcher(new String(in.readAllBytes(), StandardCharsets.UTF_8));
            if (!m.find()) {
                return java.util.List.of();
            }
            return java.util.Arrays.stream(m.group(1).split(",")).map(String::strip)
                    .map(c -> c.replaceAll(" (first|also seen)$", "")).filter(c -> !c.equals("unknown")).toList();
        }
    }

    static String withoutHeader(String text) {
        int i = 0;
        while (text.startsWith("#", i)) {
            int nl = text.indexOf('\n', i);
            if (nl < 0) {
                return "";
            }
            i = nl + 1;
        }
        return text.substring(i);
    }
}
