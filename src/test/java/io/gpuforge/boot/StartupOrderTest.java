package io.gpuforge.boot;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real start of the desktop app (its own JVM, headless Monocle, an empty home): the first frame is on the screen
 * before anything slow is loaded (SQLite and the database, the secret store, SSH, libvirt, JNA, Logback's
 * configuration), and the window then fills in by itself.
 */
@Tag("ui")
class StartupOrderTest {

    private static final Pattern SLOW = Pattern.compile("\\[class,load\\] (org\\.sqlite\\.|io\\.gpuforge\\.store\\."
            + "Database |io\\.gpuforge\\.store\\.secret\\.VaultSecretStore |org\\.apache\\.sshd\\.|org\\.libvirt\\."
            + "|com\\.sun\\.jna\\.|io\\.gpuforge\\.app\\.settings\\.SettingsStore )");

    private static final Pattern UPTIME = Pattern.compile("\\[(\\d+)ms\\]\\[class,load\\]");
    private static final Pattern FIRST_FRAME = Pattern.compile("LOG First frame (\\d+) ms after JVM start");
    private static final Pattern READY = Pattern.compile("LOG Window ready (\\d+) ms after JVM start");
    private static final long CLOCKS_APART_MS = 3;

    @TempDir
    Path dir;

    @Test
    void theFirstFrameIsShownBeforeTheDatabaseSecretsAndBackendsAreLoadedThenTheWindowFillsIn() throws Exception {
        Start start = start();
        assertThat(start.loadedBeforeFirstFrame()).as("loaded before the first frame")
                .noneMatch(l -> SLOW.matcher(l).find());
        assertThat(start.readyMs).as("the window filled in after the first frame").isGreaterThan(start.firstFrameMs);
        assertThat(start.loadedBetween(start.firstFrameMs, start.readyMs)).anyMatch(l -> l.contains("] org.sqlite."));
        assertThat(start.lines).as("libvirt (and its JNA binding) only for a libvirt connection")
                .noneMatch(l -> l.contains("[class,load] org.libvirt."));
        assertThat(dir.resolve("home/data/gpuforge.db")).exists();
    }

    @Test
    void theThemesStylesheetIsLoadedOnlyOnceTheFirstFrameIsDrawn() throws Exception {
        Start start = start();
        // AtlantaFX's Primer stylesheet: about 200 KB of binary CSS, a third of the time to the first frame
        assertThat(start.loadedBeforeFirstFrame()).as("loaded before the first frame")
                .noneMatch(l -> l.contains("[class,load] atlantafx.base.theme."));
        assertThat(start.loadedBetween(start.firstFrameMs, start.readyMs))
                .as("the theme, once the first frame is drawn")
                .anyMatch(l -> l.contains("[class,load] atlantafx.base.theme.PrimerLight "));
    }

    @Test
    void javaFxsOwnMessagesGoToTheLogWithoutAConsoleDateFormattedBeforeTheFirstFrame() throws Exception {
        Start start = start();
        // a start from a jar always gets this one; java.util.logging's console handler printed it with a local
        // date, which loaded the time-zone database and the locale data on the toolkit's thread
        assertThat(start.lines).as("JavaFX's warning, in GPUForge's log")
                .anyMatch(l -> l.startsWith("LOG Unsupported JavaFX"))
                .as("no notice of SLF4J's on stderr (its replay of what was logged while logging was held)")
                .noneMatch(l -> l.startsWith("SLF4J"));
        assertThat(start.loadedBeforeFirstFrame()).as("loaded before the first frame")
                .noneMatch(l -> l.contains("[class,load] java.util.logging.SimpleFormatter "));
    }

    @Test
    void logbackReadsItsConfigurationOnlyOnceTheFirstFrameIsDrawnAndLosesNothingLoggedBefore() throws Exception {
        Start start = start();
        // its XML parser, the rolling policy's calendars, locale and time-zone data: a core of two, before
        assertThat(start.loadedBeforeFirstFrame()).as("loaded before the first frame")
                .noneMatch(l -> l.contains("[class,load] ch.qos.logback.classic.util.DefaultJoranConfigurator "))
                .noneMatch(l -> l.contains("[class,load] com.sun.org.apache.xerces."));
        assertThat(start.lines).as("Logback configured, from the file it was given")
                .anyMatch(l -> l.contains("[class,load] ch.qos.logback.classic.util.DefaultJoranConfigurator "));
        assertThat(start.lines).as("what the start logged while logging was held, written once it was set up")
                .anyMatch(l -> l.startsWith("LOG First frame "));
    }

    /**
     * Starts the app to its full window and back: the app's log (its output) and the JVM's class-loading log (a file
     * of its own, with the JVM's uptime: the two writers would mix within a line in one stream).
     */
    private Start start() throws Exception {
        Path logback = dir.resolve("logback.xml");
        Path classLog = dir.resolve("class-load.log");
        Files.writeString(logback, "<configuration><appender name=\"OUT\" class=\"ch.qos.logback.core.ConsoleAppender\">"
                + "<encoder><pattern>LOG %msg%n</pattern></encoder></appender>"
                + "<root level=\"INFO\"><appender-ref ref=\"OUT\"/></root></configuration>");
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xlog:class+load=info:file=" + classLog + ":uptimemillis,tags",
                "-cp", System.getProperty("java.class.path"),
                "-Dgpuforge.home=" + dir.resolve("home"), "-Dlogback.configurationFile=" + logback,
                "-D" + GpuForgeApp.EXIT_AFTER_FIRST_FRAME + "=true", "-Dglass.platform=Monocle",
                "-Dmonocle.platform=Headless", "-Dprism.order=sw", "-Djava.awt.headless=true",
                Launcher.class.getName()));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        List<String> lines = new ArrayList<>(new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8)
                .lines().toList());
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("the app exits after its window is drawn").isTrue();
        lines.addAll(Files.readAllLines(classLog, StandardCharsets.UTF_8));
        String all = tail(String.join("\n", lines));
        assertThat(p.exitValue()).as(all).isZero();
        long firstFrame = millis(lines, FIRST_FRAME);
        long ready = millis(lines, READY);
        assertThat(firstFrame).as("first frame logged:\n%s", all).isPositive();
        assertThat(ready).as("window ready logged:\n%s", all).isPositive();
        return new Start(lines, firstFrame, ready);
    }

    /**
     * One start. The app logs the first frame's and the full window's time after the JVM's start; what was logged
     * before logging is set up is written later, so the class loads are placed by the JVM's own uptime, not by their
     * place in the stream. Both clocks start with the JVM, a millisecond or two apart: a class counts as loaded
     * before the first frame when the JVM loaded it more than {@link #CLOCKS_APART_MS} before.
     */
    private record Start(List<String> lines, long firstFrameMs, long readyMs) {

        List<String> loadedBeforeFirstFrame() {
            return lines.stream().filter(l -> uptime(l) >= 0 && uptime(l) < firstFrameMs - CLOCKS_APART_MS).toList();
        }

        List<String> loadedBetween(long fromMs, long toMs) {
            return lines.stream().filter(l -> uptime(l) >= fromMs - CLOCKS_APART_MS && uptime(l) <= toMs).toList();
        }
    }

    private static long uptime(String line) {
        Matcher m = UPTIME.matcher(line);
        return m.lookingAt() ? Long.parseLong(m.group(1)) : -1;
    }

    private static long millis(List<String> lines, Pattern p) {
        for (String l : lines) {
            Matcher m = p.matcher(l);
            if (m.lookingAt()) {
                return Long.parseLong(m.group(1));
            }
        }
        return -1;
    }

    private static String tail(String s) {
        return s.length() > 4000 ? s.substring(s.length() - 4000) : s;
    }
}
