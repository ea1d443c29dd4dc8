package io.gpuforge.lab;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** One QEMU process (one boot of the lab machine): serial console to a file, SSH on a free loopback port. */
final class Qemu implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Qemu.class);
    private final Process process;
    private final int sshPort;
    private final Path serialLog;

    private Qemu(Process process, int sshPort, Path serialLog) {
        this.process = process;
        this.sshPort = sshPort;
        this.serialLog = serialLog;
    }

    /** What to boot: kernel, initramfs, command line (the firmware's part). */
    record BootEntry(Path kernel, Path initrd, String cmdline) {
    }

    static Qemu start(Topology topology, BootEntry boot, Path logDir, int number) throws IOException {
        IOException last = null;
        for (int attempt = 0; attempt < 3; attempt++) {
            int port = freePort();
            Path serial = logDir.resolve("boot-" + number + "-serial.log");
            Path stderr = logDir.resolve("boot-" + number + "-qemu.log");
            List<String> cmd = new ArrayList<>(List.of("qemu-system-x86_64"));
            cmd.addAll(topology.qemuArgs(port));
            cmd.addAll(List.of("-serial", "file:" + serial, "-kernel", boot.kernel().toString(),
                    "-initrd", boot.initrd().toString(), "-append", boot.cmdline()));
            LOG.info("boot {}: {}", number, String.join(" ", cmd));
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(stderr.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile())).start();
            try {
                // a port taken in between makes QEMU exit at once ("Could not set up host forwarding rule")
                if (p.waitFor(1, TimeUnit.SECONDS)) {
                    last = new IOException("QEMU exited at start (" + p.exitValue() + "): "
                            + Files.readString(stderr, StandardCharsets.UTF_8).strip());
                    continue;
                }
            } catch (InterruptedException e) {
                p.destroyForcibly();
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while starting QEMU", e);
            }
            return new Qemu(p, port, serial);
        }
        throw last;
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    int sshPort() {
        return sshPort;
    }

    /** QEMU's exit status and what it printed, for a machine that stopped. */
    String exitDescription() {
        String printed;
        try {
            printed = Files.readString(serialLog.resolveSibling(serialLog.getFileName().toString()
                    .replace("-serial.log", "-qemu.log")), StandardCharsets.UTF_8).strip();
        } catch (IOException e) {
            printed = "(no QEMU log: " + e.getMessage() + ")";
        }
        return "QEMU exit " + (process.isAlive() ? "none yet" : String.valueOf(process.exitValue())) + ": " + printed;
    }

    boolean alive() {
        return process.isAlive();
    }

    /** Waits for QEMU to exit by itself (the guest powered off or reset under -no-reboot). */
    boolean awaitExit(Duration timeout) throws InterruptedException {
        return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    String serialTail(int lines) {
        try {
            if (!Files.exists(serialLog)) {
                return "(no serial output)";
            }
            List<String> all = Files.readAllLines(serialLog, StandardCharsets.ISO_8859_1);
            return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    Path serialLog() {
        return serialLog;
    }

    /** Kills QEMU (if still running) and waits for it: the forwarded port is free afterwards. */
    @Override
    public void close() {
        if (process.isAlive()) {
            process.destroyForcibly();
        }
        try {
            process.waitFor(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
