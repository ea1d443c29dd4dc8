package io.gpuforge.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gpuforge.app.AppPaths;
import io.gpuforge.testing.HostTrees;
import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import io.gpuforge.cli.common.CliOutput;

/**
 * Text a host controls (file contents in diffs, device names, error messages) cannot drive the admin's
 * terminal: control characters, escape sequences, C1 controls and bidi overrides are shown escaped.
 */
class TerminalSafeOutputTest {

    /** OSC 0 sets the terminal's title, ED 2 clears the screen. */
    private static final String TITLE = "\u001b]0;pwned\u0007";
    private static final String CLEAR = "\u001b[2J";

    @TempDir
    Path dir;

    private int code;
    private String err;

    private String run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter e = new StringWriter();
        code = GpuForgeCli.run(args, AppPaths.underHome(dir.resolve("home")), new CliOutput(new PrintWriter(out),
                new PrintWriter(e)), new ByteArrayInputStream(new byte[0]));
        err = e.toString();
        return out.toString();
    }

    private Path hostWithHostileGrub() throws Exception {
        Path root = HostTrees.intelGrub(dir.resolve("h"));
        Files.writeString(root.resolve("etc/default/grub"), "GRUB_DEFAULT=0\nGRUB_TIMEOUT=5\n"
                + "# " + TITLE + CLEAR + " \u202eevil\u009b31m\u007f\rspoof\n"
                + "GRUB_CMDLINE_LINUX_DEFAULT=\"quiet splash intel_iommu=on\"\nGRUB_CMDLINE_LINUX=\"\"\n");
        return root;
    }

    private static void assertNoTerminalControls(String s) {
        assertThat(s.chars().filter(c -> c < 0x20 && c != '\n' && c != '\t' || c >= 0x7f && c <= 0x9f
                || c == 0x202e).count()).as("control characters in %s", s).isZero();
    }

    @Test
    void aPlanWhoseDiffHoldsEscapeSequencesShowsThemEscaped() throws Exception {
        Path root = hostWithHostileGrub();
        String plan = run("plan", "--sysroot", root.toString(), "--device", "0000:01:00.0");
        assertThat(code).as(err).isZero();
        assertThat(plan).contains("+GRUB_CMDLINE_LINUX_DEFAULT=\"quiet splash intel_iommu=on iommu=pt\"")
                .contains(" # \\x1b]0;pwned\\x07\\x1b[2J \\u202eevil\\x9b31m\\x7f\\x0dspoof\n");
        assertNoTerminalControls(plan);
    }

    @Test
    void jsonOutputEscapesEveryControlAndStaysValidJson() throws Exception {
        Path root = hostWithHostileGrub();
        String out = run("plan", "--sysroot", root.toString(), "--device", "0000:01:00.0", "--json");
        assertThat(code).as(err).isZero();
        assertNoTerminalControls(out);
        assertThat(out).contains("\\u202E").contains("\\u009B").contains("\\u007F");
        JsonNode plan = new ObjectMapper().readTree(out);
        assertThat(plan.get("edits").get(0).get("before").asText())
                .isEqualTo(Files.readString(root.resolve("etc/default/grub")));
    }

    @Test
    void deviceNamesFromTheHostsPciIdsAreEscaped() throws Exception {
        Path root = HostTrees.intelGrub(dir.resolve("h"));
        Path ids = root.resolve("usr/share/misc/pci.ids");
        Files.writeString(ids, Files.readString(ids).replace("AD104 [GeForce RTX 4070]",
                "AD104 " + CLEAR + "[GeForce \u202eRTX 4070]"));
        String out = run("iommu", "--sysroot", root.toString());
        assertThat(code).as(err).isZero();
        assertThat(out).contains("AD104 \\x1b[2J[GeForce \\u202eRTX 4070]");
        assertNoTerminalControls(out);
    }

    /** picocli colours help on a terminal; those colour codes would now show escaped, so help has none. */
    @Test
    void helpOnATerminalIsPlainTextNotEscapedColourCodes() {
        String before = System.getProperty("picocli.ansi");
        System.setProperty("picocli.ansi", "true"); // what picocli decides on a terminal
        try {
            String help = run("plan", "--help");
            assertThat(code).isZero();
            assertThat(help).contains("Usage: gpuforge plan").doesNotContain("\\x1b").doesNotContain("\u001b");
        } finally {
            if (before == null) {
                System.clearProperty("picocli.ansi");
            } else {
                System.setProperty("picocli.ansi", before);
            }
        }
    }

    @Test
    void everyWriterOfTheCliIsCovered() {
        StringWriter out = new StringWriter();
        StringWriter e = new StringWriter();
        CliOutput o = new CliOutput(new PrintWriter(out), new PrintWriter(e));
        o.line("line " + CLEAR);
        o.out().print("print " + TITLE + "\n");
        o.out().printf("printf %s%n", "\u0085next");
        o.out().write('\u001b');
        o.out().println();
        o.out().flush();
        o.error("error \u2066isolate\u2069 \u0000");
        o.err().println("stderr \b\b\bfake");
        o.err().flush();
        o.json(Map.of("name", "x" + CLEAR + "\u202e"));
        // what stays as it is: newlines, tabs, other languages, symbols
        o.line("中文\tok ✓ ├── 🙂");

        assertThat(out.toString()).isEqualTo("line \\x1b[2J\nprint \\x1b]0;pwned\\x07\nprintf \\x85next\n\\x1b\n"
                + "{\n  \"name\" : \"x\\u001B[2J\\u202E\"\n}\n中文\tok ✓ ├── 🙂\n");
        assertThat(e.toString()).isEqualTo("error \\u2066isolate\\u2069 \\x00\nstderr \\x08\\x08\\x08fake\n");
    }
}
