package io.gpuforge.bench;

import com.sun.management.OperatingSystemMXBean;
import io.gpuforge.testing.SharedFixtures;
import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * For the telemetry benchmarks: a host's {@code nvidia-smi} stand-in with {@code gpus} GPUs (copies of the recorded
 * RTX 4080 SUPER under load, each its own UUID) that, like the real one, does its start-up work once (here: awk picks
 * the asked columns from the capture) and then prints a round per {@code -lms} interval without starting anything
 * (bash's own {@code read -t} waits); without {@code -lms} it prints one round and exits, as the real one does. And
 * this JVM's CPU time, with that of the processes it started and reaped.
 */
final class BenchNvidiaSmi {

    static final String CAPTURE = "nvidia-smi/02-rtx4080super-linux-595.71.05.query-gpu.load.csv";
    static final String UUID = "GPU-00000000-0000-0000-0000-000000000000";
    private static final long CLOCK_TICKS = clockTicks();

    private BenchNvidiaSmi() {
    }

    /** The UUID of GPU {@code gpu} of host {@code host}. */
    static String uuid(int host, int gpu) {
        return String.format(Locale.ROOT, "GPU-%08x-0000-0000-0000-%012x", host, gpu);
    }

    /** Writes host {@code host}'s fake into {@code dir} (its starts are counted in {@code dir/starts}). */
    static Path write(Path dir, int host, int gpus) throws IOException {
        Files.createDirectories(dir);
        SharedFixtures.read(CAPTURE); // fails with what to do when the shared fixtures are missing
        List<String> lines = Files.readAllLines(SharedFixtures.dir().resolve(CAPTURE), StandardCharsets.UTF_8);
        List<String> capture = new ArrayList<>();
        capture.add(lines.get(0));
        for (int g = 0; g < gpus; g++) {
            capture.add(lines.get(1).replace(UUID, uuid(host, g)).replace("00000000:01:00.0",
                    String.format(Locale.ROOT, "00000000:%02x:00.0", g + 1)));
        }
        Path csv = Files.write(dir.resolve("capture.csv"), capture, StandardCharsets.UTF_8);
        Path awk = dir.resolve("fake-nvidia-smi.awk");
        try (InputStream in = BenchNvidiaSmi.class.getResourceAsStream("/telemetry/fake-nvidia-smi.awk")) {
            Files.write(awk, in.readAllBytes());
        }
        String script = "#!/bin/bash\n"
                + "q=; fmt=; lms=; prev=\n"
                + "for a in \"$@\"; do case \"$a\" in --query-gpu=*) q=\"${a#--query-gpu=}\";; --format=*) fmt=\"${a#--format=}\";; esac;"
                + " [ \"$prev\" = -lms ] && lms=\"$a\"; prev=\"$a\"; done\n"
                + "echo start >> '" + dir.resolve("starts") + "'\n"
                + "rows=$(awk -v q=\"$q\" -v fmt=\"$fmt\" -f '" + awk + "' '" + csv + "') || exit 2\n"
                + "[ -z \"$lms\" ] && { printf '%s\\n' \"$rows\"; exit 0; }\n"
                + "fifo='" + dir.resolve("wait") + "'.$$; mkfifo \"$fifo\"; exec 3<>\"$fifo\"; rm -f \"$fifo\"\n"
                + "printf -v secs '%d.%03d' $((lms / 1000)) $((lms % 1000))\n"
                + "while printf '%s\\n' \"$rows\"; do read -t \"$secs\" -u 3; done\n";
        Path p = dir.resolve("nvidia-smi");
        Files.writeString(p, script, StandardCharsets.UTF_8);
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
        return p;
    }

    static int starts(Path dir) throws IOException {
        Path s = dir.resolve("starts");
        return Files.exists(s) ? Files.readAllLines(s).size() : 0;
    }

    /** CPU time of this JVM (all its threads), in nanoseconds. */
    static long processCpuNanos() {
        return ((OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    /** CPU time of the processes this JVM started and that have ended (cutime + cstime), in nanoseconds. */
    static long childrenCpuNanos() throws IOException {
        String stat = Files.readString(Path.of("/proc/self/stat"));
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        // after the name: state is field 3, so cutime (16) and cstime (17) are at 13 and 14
        long ticks = Long.parseLong(f[13]) + Long.parseLong(f[14]);
        return ticks * 1_000_000_000L / CLOCK_TICKS;
    }

    private static long clockTicks() {
        try {
            Process p = new ProcessBuilder("getconf", "CLK_TCK").redirectErrorStream(true).start();
            String s = new String(p.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).strip();
            p.waitFor();
            return Long.parseLong(s);
        } catch (IOException | InterruptedException | NumberFormatException e) {
            return 100;
        }
    }
}
