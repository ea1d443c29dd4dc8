package io.gpuforge.boot;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The window runs with the collector pom.xml names ({@code app.gc}, {@code app.gc.heuristics}: Shenandoah, whose
 * pauses do not hold up frames; docs/performance.md, "Step 4"), the command with the JVM's default: {@code ./gpuforge}
 * started without arguments asks for it where its Java has it and falls back to G1 where not (Oracle's builds), with
 * arguments it never does; the installers' launchers ask for the same flags; and the Java these tests run on has it.
 */
class WindowCollectorTest {

    private static final Path ROOT = Path.of("").toAbsolutePath();

    @TempDir
    Path dir;

    @Test
    void theWindowAsksForShenandoahWhereJavaHasItAndTheCommandNever() throws Exception {
        List<String> gc = pomCollector();
        assertThat(gc).containsExactly("-XX:+UseShenandoahGC", "-XX:ShenandoahGCHeuristics=compact");

        assertThat(runScript(true)).as("the window, on a Java with Shenandoah")
                .containsSubsequence("-XX:TieredStopAtLevel=1", gc.get(0), gc.get(1), "-jar");
        List<String> noShenandoah = runScript(false);
        assertThat(noShenandoah).as("the window, on a Java without it: G1, and the window still opens")
                .contains("-jar").noneMatch(a -> a.contains("Shenandoah"));
        assertThat(runScript(true, "--version")).as("the command").endsWith("--version")
                .noneMatch(a -> a.contains("Shenandoah"));
    }

    @Test
    void theInstallersLaunchersAskForTheSameCollector() throws Exception {
        List<String> gc = pomCollector();
        for (String installer : List.of("installer/linux/build.sh", "installer/windows/build.ps1",
                "installer/macos/build.sh")) {
            assertThat(Files.readString(ROOT.resolve(installer))).as(installer).contains(gc);
        }
    }

    @Test
    void theJavaOfThisBuildHasTheCollector() throws Exception {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        cmd.addAll(pomCollector());
        cmd.add("-version");
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as("this JDK refused the window's collector: " + out).isZero();
    }

    /** pom.xml's app.gc and app.gc.heuristics. */
    private static List<String> pomCollector() throws Exception {
        String pom = Files.readString(ROOT.resolve("pom.xml"));
        List<String> flags = new ArrayList<>();
        for (String name : List.of("app.gc", "app.gc.heuristics")) {
            Matcher m = Pattern.compile("<" + Pattern.quote(name) + ">([^<]+)</").matcher(pom);
            assertThat(m.find()).as("pom.xml has " + name).isTrue();
            flags.add(m.group(1).trim());
        }
        return flags;
    }

    /**
     * Runs a copy of ./gpuforge (with a jar in place, so it builds nothing) against a stand-in {@code java} on the
     * PATH that says what it was started with and, for {@code -version}, whether it takes the collector's flags.
     */
    private List<String> runScript(boolean hasShenandoah, String... args) throws Exception {
        Path checkout = Files.createDirectories(dir.resolve("checkout-" + hasShenandoah + args.length));
        Files.createDirectories(checkout.resolve("target"));
        Files.writeString(checkout.resolve("target/gpuforge.jar"), "");
        Path script = checkout.resolve("gpuforge");
        Files.copy(ROOT.resolve("gpuforge"), script);
        Path bin = Files.createDirectories(checkout.resolve("bin"));
        Path java = bin.resolve("java");
        Path said = checkout.resolve("java-args");
        Files.writeString(java, "#!/bin/sh\n"
                + "case \" $* \" in *\" -version \"*)\n"
                + (hasShenandoah ? "    exit 0 ;;\n" : "    case \"$*\" in *Shenandoah*) exit 1 ;; esac; exit 0 ;;\n")
                + "esac\n"
                + "for a in \"$@\"; do printf '%s\\n' \"$a\"; done > '" + said + "'\n");
        Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
        List<String> cmd = new ArrayList<>(List.of("sh", script.toString()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().put("PATH", bin + ":/usr/bin:/bin");
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        return Files.readAllLines(said);
    }
}
