package io.gpuforge.cli.vm;

import io.gpuforge.domain.vm.VmTemplate;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import io.gpuforge.cli.common.CliServices;

/**
 * The values a template asks for, as {@code vm create} and {@code vm provision} take them: {@code --var NAME=VALUE},
 * {@code --var NAME=@-} (the next line of standard input, after the password of {@code --password-stdin}),
 * {@code --var NAME=@FILE} (the file's text without its last newline) and {@code --var-file FILE} (lines
 * {@code NAME=VALUE}, {@code #} comments). A secret variable given on the command line itself is taken, with a
 * warning: other users see it in {@code ps}, and the shell keeps it in its history. Files and lines are bounded
 * ({@value #MAX_FILE_BYTES} bytes).
 */
final class TemplateValues {

    static final int MAX_FILE_BYTES = 64 * 1024;

    private TemplateValues() {
    }

    /**
     * The values, {@code --var-file}'s first and {@code --var}'s over them, in the order given; {@code @-} lines are
     * read now, in the order of the {@code --var} options.
     */
    static Map<String, String> read(VmTemplate t, Map<String, String> vars, List<Path> varFiles, CliServices services)
            throws IOException {
        Map<String, String> out = new LinkedHashMap<>();
        for (Path f : varFiles) {
            out.putAll(file(f, services));
        }
        for (Map.Entry<String, String> e : vars.entrySet()) {
            String v = e.getValue();
            if (v.equals("@-")) {
                String line = services.readLine();
                if (line == null) {
                    throw new IllegalArgumentException("--var " + e.getKey() + "=@-: standard input ended before its"
                            + " line");
                }
                out.put(e.getKey(), line);
            } else if (v.startsWith("@") && v.length() > 1) {
                out.put(e.getKey(), stripLastNewline(text(Path.of(v.substring(1)), "--var " + e.getKey())));
            } else {
                if (secret(t, e.getKey())) {
                    services.output().error("warning: --var " + e.getKey() + "=… puts a secret on the command line,"
                            + " where other users see it (ps) and your shell keeps it: use --var " + e.getKey()
                            + "=@- (standard input) or --var-file FILE");
                }
                out.put(e.getKey(), v);
            }
        }
        return out;
    }

    private static boolean secret(VmTemplate t, String name) {
        return t.variables().stream().anyMatch(x -> x.name().equals(name) && x.secret());
    }

    private static Map<String, String> file(Path f, CliServices services) throws IOException {
        String text = text(f, "--var-file");
        try {
            Set<PosixFilePermission> p = Files.getPosixFilePermissions(f);
            if (p.contains(PosixFilePermission.OTHERS_READ) || p.contains(PosixFilePermission.GROUP_READ)) {
                services.output().error("warning: " + f + " is readable by other users; a file of secrets should be"
                        + " yours alone (chmod 600 " + f + ")");
            }
        } catch (UnsupportedOperationException e) {
            // not a POSIX file system: nothing to say
        }
        Map<String, String> out = new LinkedHashMap<>();
        int n = 0;
        for (String line : text.split("\n", -1)) {
            n++;
            String l = line.endsWith("\r") ? line.substring(0, line.length() - 1) : line;
            if (l.isBlank() || l.stripLeading().startsWith("#")) {
                continue;
            }
            int eq = l.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException(f + ", line " + n + ": expected NAME=VALUE");
            }
            out.put(l.substring(0, eq).strip(), l.substring(eq + 1));
        }
        return out;
    }

    private static String text(Path f, String option) throws IOException {
        try (InputStream in = Files.newInputStream(f)) {
            byte[] b = in.readNBytes(MAX_FILE_BYTES + 1);
            if (b.length > MAX_FILE_BYTES) {
                throw new IllegalArgumentException(option + ": " + f + " is larger than " + MAX_FILE_BYTES + " bytes");
            }
            return new String(b, StandardCharsets.UTF_8);
        }
    }

    private static String stripLastNewline(String s) {
        return s.endsWith("\r\n") ? s.substring(0, s.length() - 2) : s.endsWith("\n") ? s.substring(0, s.length() - 1) : s;
    }
}
