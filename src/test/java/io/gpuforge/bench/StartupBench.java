package io.gpuforge.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.gpuforge.testing.Tools;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Start-up as a user sees it: time from process start to a visible (mapped) top-level window on the X server, and
 * resident memory ({@code VmRSS}) 5 s after start, median of 5, for the packaged app-image's launcher, {@code java
 * -jar} of the shaded jar, {@code virt-manager --connect test:///default} and a bare JavaFX window, interleaved in
 * the same run on one Xvfb server. Every subject is measured the same way: {@code xdotool search --onlyvisible --pid}
 * polled from here. Writes target/bench/startup.json with the ratios against virt-manager. Run with
 * {@code mvn -Pdist -DskipTests package} first (the app-image), then {@code mvn -Pbench verify -Dtest=StartupBench}.
 */
@Tag("bench")
class StartupBench {

    private static final int RUNS = 5;
    private static final long RSS_AFTER_MS = 5_000;
    private static final long VISIBLE_TIMEOUT_MS = 60_000;
    private static final Path APP_IMAGE = Path.of("target/dist/GPUForge/bin/GPUForge");
    private static final Path JAR = Path.of("target/gpuforge.jar");

    @Test
    void timeToVisibleWindowAndMemory() throws Exception {
        Tools.require("Xvfb", "xvfb");
        Tools.require("xdotool", "xdotool");
        Tools.require("virt-manager", "virt-manager");
        assertThat(APP_IMAGE).as("the packaged app-image: build it with mvn -Pdist -DskipTests package").exists();
        assertThat(JAR).as("the shaded jar: build it with mvn -DskipTests package").exists();
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Map<String, List<String>> subjects = new LinkedHashMap<>();
        subjects.put("gpuforge_packaged", List.of(APP_IMAGE.toAbsolutePath().toString()));
        subjects.put("gpuforge_java_jar", List.of(java, "-jar", JAR.toAbsolutePath().toString()));
        subjects.put("virt_manager", List.of("virt-manager", "--no-fork", "--connect", "test:///default"));
        subjects.put("bare_javafx", List.of(java, "-cp", System.getProperty("java.class.path"),
                BareFxWindow.Main.class.getName()));
        String loadBefore = loadAverage();
        Map<String, List<Long>> visible = new LinkedHashMap<>();
        Map<String, List<Long>> rss = new LinkedHashMap<>();
        subjects.keySet().forEach(k -> {
            visible.put(k, new ArrayList<>());
            rss.put(k, new ArrayList<>());
        });
        try (Xvfb x = Xvfb.start()) {
            for (int i = 0; i < RUNS; i++) {
                for (Map.Entry<String, List<String>> s : subjects.entrySet()) {
                    long[] r = measure(x.display(), s.getValue());
                    visible.get(s.getKey()).add(r[0]);
                    rss.get(s.getKey()).add(r[1]);
                }
            }
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("benchmark", "startup-visible-window");
        out.put("display", "Xvfb 1280x800x24, no window manager; visible = xdotool search --onlyvisible --pid");
        out.put("runs", RUNS);
        out.put("rss_after_ms", RSS_AFTER_MS);
        out.put("cpus", Runtime.getRuntime().availableProcessors());
        out.put("load_average_before", loadBefore);
        out.put("load_average_after", loadAverage());
        long vmMs = median(visible.get("virt_manager"));
        long vmRss = median(rss.get("virt_manager"));
        for (String k : subjects.keySet()) {
            Map<String, Object> one = new LinkedHashMap<>();
            one.put("command", String.join(" ", subjects.get(k)).replace(System.getProperty("java.class.path"), "…"));
            one.put("visible_ms", visible.get(k));
            one.put("visible_median_ms", median(visible.get(k)));
            one.put("rss_mb", rss.get(k));
            one.put("rss_median_mb", median(rss.get(k)));
            one.put("time_ratio_vs_virt_manager", ratio(median(visible.get(k)), vmMs));
            one.put("rss_ratio_vs_virt_manager", ratio(median(rss.get(k)), vmRss));
            out.put(k, one);
        }
        out.put("packaged_window_first", median(visible.get("gpuforge_packaged")) < vmMs);
        Path dir = Path.of("target/bench");
        Files.createDirectories(dir);
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(dir.resolve("startup.json").toFile(),
                out);
        assertThat(visible.get("gpuforge_packaged")).hasSize(RUNS);
    }

    /** Starts one subject with its own empty per-user directories; returns {visible ms, RSS MiB after 5 s}. */
    private static long[] measure(String display, List<String> command) throws Exception {
        Path home = Files.createTempDirectory("gpuforge-startbench-");
        // from a directory of its own, as the desktop menu starts it (not the checkout: an archive or a library
        // found only relative to the checkout would go unnoticed here)
        ProcessBuilder pb = new ProcessBuilder(command).directory(home.toFile()).redirectErrorStream(true)
                .redirectOutput(home.resolve("output.log").toFile());
        Map<String, String> env = pb.environment();
        env.put("DISPLAY", display);
        env.put("XDG_CONFIG_HOME", home.resolve("config").toString());
        env.put("XDG_DATA_HOME", home.resolve("data").toString());
        env.put("XDG_STATE_HOME", home.resolve("state").toString());
        env.put("XDG_CACHE_HOME", home.resolve("cache").toString());
        long t0 = System.nanoTime();
        Process p = pb.start();
        try {
            long visibleMs = -1;
            while (visibleMs < 0) {
                if (hasVisibleWindow(display, p.pid())) {
                    visibleMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
                } else if (!p.isAlive() || System.nanoTime() - t0 > TimeUnit.MILLISECONDS.toNanos(VISIBLE_TIMEOUT_MS)) {
                    throw new AssertionError("no visible window from " + command + ":\n"
                            + Files.readString(home.resolve("output.log"), StandardCharsets.UTF_8));
                } else {
                    Thread.sleep(5);
                }
            }
            long left = RSS_AFTER_MS - TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
            if (left > 0) {
                Thread.sleep(left);
            }
            return new long[] {visibleMs, rssMib(p.pid())};
        } finally {
            p.descendants().forEach(ProcessHandle::destroy);
            p.destroy();
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly().waitFor();
            }
        }
    }

    private static boolean hasVisibleWindow(String display, long pid) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder("xdotool", "search", "--onlyvisible", "--pid", Long.toString(pid))
                .redirectErrorStream(true);
        pb.environment().put("DISPLAY", display);
        Process q = pb.start();
        String out = new String(q.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        q.waitFor();
        return q.exitValue() == 0 && !out.isEmpty();
    }

    private static long rssMib(long pid) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
            if (line.startsWith("VmRSS:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", "")) / 1024;
            }
        }
        throw new AssertionError("no VmRSS for process " + pid);
    }

    /** The 1, 5 and 15 minute load averages (/proc/loadavg): other work on the machine slows every subject. */
    private static String loadAverage() throws IOException {
        String[] f = Files.readString(Path.of("/proc/loadavg"), StandardCharsets.US_ASCII).split("\\s+");
        return f[0] + " " + f[1] + " " + f[2];
    }

    private static double ratio(long a, long b) {
        return Math.round(100.0 * a / b) / 100.0;
    }

    private static long median(List<Long> values) {
        List<Long> sorted = new ArrayList<>(values);
        sorted.sort(Long::compare);
        return sorted.get(sorted.size() / 2);
    }

    /** One Xvfb server for the whole run; its display number comes back through -displayfd. */
    private record Xvfb(Process process, String display) implements AutoCloseable {

        static Xvfb start() throws IOException {
            // -noreset: by default the server resets when its last client leaves, and a subject that connects
            // during that reset fails with "Unable to open DISPLAY" (seen in about one run in three)
            Process p = new ProcessBuilder("Xvfb", "-displayfd", "1", "-screen", "0", "1280x800x24", "-nolisten",
                    "tcp", "-noreset").redirectError(ProcessBuilder.Redirect.DISCARD).start();
            StringBuilder number = new StringBuilder();
            int c;
            while ((c = p.getInputStream().read()) >= 0 && c != '\n') {
                number.append((char) c);
            }
            if (number.toString().isBlank()) {
                p.destroyForcibly();
                throw new AssertionError("Xvfb did not start (no display number)");
            }
            return new Xvfb(p, ":" + number.toString().strip());
        }

        @Override
        public void close() throws InterruptedException {
            process.destroy();
            process.waitFor(10, TimeUnit.SECONDS);
        }
    }
}
