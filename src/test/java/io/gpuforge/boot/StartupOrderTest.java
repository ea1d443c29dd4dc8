package io.gpuforge.boot;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real start of the desktop app (its own JVM, headless Monocle, an empty home): the first frame is on the screen
 * before anything slow is loaded (SQLite and the database, the secret store, SSH, libvirt, JNA), and the window then
 * fills in by itself. The JVM's class-loading log and the app's log go to one stream, in order.
 */
@Tag("ui")
class StartupOrderTest {

    private static final Pattern SLOW = Pattern.compile("\\[class,load\\] (org\\.sqlite\\.|io\\.gpuforge\\.store\\."
            + "Database |io\\.gpuforge\\.store\\.secret\\.VaultSecretStore |org\\.apache\\.sshd\\.|org\\.libvirt\\."
            + "|com\\.sun\\.jna\\.|io\\.gpuforge\\.app\\.settings\\.SettingsStore )");

    @TempDir
    Path dir;

    @Test
    void theFirstFrameIsShownBeforeTheDatabaseSecretsAndBackendsAreLoadedThenTheWindowFillsIn() throws Exception {
        List<String> lines = start();
        String all = String.join("\n", lines);
        int firstFrame = indexOf(lines, "LOG First frame ");
        int ready = indexOf(lines, "LOG Window ready ");
        assertThat(firstFrame).as("first frame logged:\n%s", tail(all)).isGreaterThanOrEqualTo(0);
        assertThat(lines.subList(0, firstFrame)).as("loaded before the first frame")
                .noneMatch(l -> SLOW.matcher(l).find());
        assertThat(ready).as("the window filled in after the first frame:\n%s", tail(all)).isGreaterThan(firstFrame);
        assertThat(lines.subList(firstFrame, ready)).anyMatch(l -> l.contains("[class,load] org.sqlite."));
        assertThat(lines).as("libvirt (and its JNA binding) only for a libvirt connection")
                .noneMatch(l -> l.contains("[class,load] org.libvirt."));
        assertThat(dir.resolve("home/data/gpuforge.db")).exists();
    }

    @Test
    void theThemesStylesheetIsLoadedOnlyOnceTheFirstFrameIsDrawn() throws Exception {
        List<String> lines = start();
        String all = String.join("\n", lines);
        int firstFrame = indexOf(lines, "LOG First frame ");
        int ready = indexOf(lines, "LOG Window ready ");
        assertThat(firstFrame).as("first frame logged:\n%s", tail(all)).isGreaterThanOrEqualTo(0);
        // AtlantaFX's Primer stylesheet: about 200 KB of binary CSS, a third of the time to the first frame
        assertThat(lines.subList(0, firstFrame)).as("loaded before the first frame")
                .noneMatch(l -> l.contains("[class,load] atlantafx.base.theme."));
        assertThat(lines.subList(firstFrame, ready)).as("the theme, once the first frame is drawn")
                .anyMatch(l -> l.contains("[class,load] atlantafx.base.theme.PrimerLight "));
    }

    @Test
    void javaFxsOwnMessagesGoToTheLogWithoutAConsoleDateFormattedBeforeTheFirstFrame() throws Exception {
        List<String> lines = start();
        String all = String.join("\n", lines);
        int firstFrame = indexOf(lines, "LOG First frame ");
        assertThat(firstFrame).as("first frame logged:\n%s", tail(all)).isGreaterThanOrEqualTo(0);
        // a start from a jar always gets this one; java.util.logging's console handler printed it with a local
        // date, which loaded the time-zone database and the locale data on the toolkit's thread
        assertThat(lines).as("JavaFX's warning, in GPUForge's log").anyMatch(l -> l.startsWith("LOG Unsupported JavaFX"))
                .as("held until logging is set up, not replayed by SLF4J with a notice on stderr")
                .noneMatch(l -> l.startsWith("SLF4J(W)"));
        assertThat(lines.subList(0, firstFrame)).as("loaded before the first frame")
                .noneMatch(l -> l.contains("[class,load] java.util.logging.SimpleFormatter "));
    }

    /** Starts the app to its full window and back; the JVM's class-loading log and the app's log, in order. */
    private List<String> start() throws Exception {
        Path logback = dir.resolve("logback.xml");
        Files.writeString(logback, "<configuration><appender name=\"OUT\" class=\"ch.qos.logback.core.ConsoleAppender\">"
                + "<encoder><pattern>LOG %msg%n</pattern></encoder></appender>"
                + "<root level=\"INFO\"><appender-ref ref=\"OUT\"/></root></configuration>");
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xlog:class+load=info:stdout", "-cp", System.getProperty("java.class.path"),
                "-Dgpuforge.home=" + dir.resolve("home"), "-Dlogback.configurationFile=" + logback,
                "-D" + GpuForgeApp.EXIT_AFTER_FIRST_FRAME + "=true", "-Dglass.platform=Monocle",
                "-Dmonocle.platform=Headless", "-Dprism.order=sw", "-Djava.awt.headless=true",
                Launcher.class.getName()));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        List<String> lines = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("the app exits after its window is drawn").isTrue();
        assertThat(p.exitValue()).as(tail(String.join("\n", lines))).isZero();
        return lines;
    }

    private static int indexOf(List<String> lines, String prefix) {
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).startsWith(prefix)) {
                return i;
            }
        }
        return -1;
    }

    private static String tail(String s) {
        return s.length() > 4000 ? s.substring(s.length() - 4000) : s;
    }
}
