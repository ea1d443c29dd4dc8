package io.gpuforge.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Start-up to first frame (JVM start → first pulse after the main window is shown), median of 5 runs,
 * against a bare JavaFX window in the same run. Uses a real X server (xvfb-run) when there is one,
 * else Monocle headless. Writes target/bench/startup.json. Run with {@code mvn -Pbench verify}.
 */
@Tag("bench")
class StartupBench {

    private static final int RUNS = 5;
    private static final Pattern APP = Pattern.compile("First frame (\\d+) ms after JVM start");
    private static final Pattern BARE = Pattern.compile("FIRST_FRAME_MS=(\\d+)");

    @Test
    void firstFrame() throws Exception {
        boolean xvfb = new File("/usr/bin/xvfb-run").canExecute();
        List<Long> app = new ArrayList<>();
        List<Long> bare = new ArrayList<>();
        for (int i = 0; i < RUNS; i++) {
            Path home = Files.createTempDirectory("gpuforge-bench-");
            run(xvfb, home, "io.gpuforge.boot.Launcher");
            String log = Files.readString(home.resolve("logs/gpuforge.log"), StandardCharsets.UTF_8);
            app.add(find(APP, log));
            bare.add(find(BARE, run(xvfb, home, BareFxWindow.Main.class.getName())));
        }
        long appMedian = median(app);
        long bareMedian = median(bare);
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("benchmark", "startup-first-frame");
        out.put("display", xvfb ? "Xvfb (GTK glass)" : "Monocle headless");
        out.put("runs", RUNS);
        out.put("gpuforge_ms", app);
        out.put("gpuforge_median_ms", appMedian);
        out.put("bare_javafx_ms", bare);
        out.put("bare_javafx_median_ms", bareMedian);
        out.put("ratio_vs_bare", Math.round(100.0 * appMedian / bareMedian) / 100.0);
        out.put("target_ms", 2300);
        Path dir = Path.of("target/bench");
        Files.createDirectories(dir);
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(dir.resolve("startup.json").toFile(), out);
        assertThat(app).hasSize(RUNS);
    }

    private static String run(boolean xvfb, Path home, String mainClass) throws Exception {
        List<String> cmd = new ArrayList<>();
        if (xvfb) {
            cmd.addAll(List.of("xvfb-run", "-a"));
        }
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), "-Dgpuforge.home=" + home,
                "-Dgpuforge.logdir=" + home.resolve("logs"),
                "-Dlogback.configurationFile=" + Path.of("target/classes/logback.xml").toAbsolutePath(), "-Dgpuforge.exitAfterFirstFrame=true"));
        if (!xvfb) {
            cmd.addAll(List.of("-Dglass.platform=Monocle", "-Dmonocle.platform=Headless", "-Dprism.order=sw"));
        }
        cmd.add(mainClass);
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("start-up run did not finish: " + output);
        }
        return output;
    }

    private static long find(Pattern p, String text) {
        Matcher m = p.matcher(text);
        if (!m.find()) {
            throw new AssertionError("no timing in output:\n" + text);
        }
        return Long.parseLong(m.group(1));
    }

    private static long median(List<Long> values) {
        List<Long> sorted = new ArrayList<>(values);
        sorted.sort(Long::compare);
        return sorted.get(sorted.size() / 2);
    }
}
