package io.gpuforge.lab;

import io.gpuforge.testing.Tools;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The lab's built guests under {@code target/lab}, made by the scripts in {@code src/test/lab} and rebuilt only
 * when their inputs change. A missing tool or a missing root-built disk skips the test locally and fails it
 * under {@code CI=true}, with what to do.
 */
final class LabArtifacts {

    private static final Logger LOG = LoggerFactory.getLogger(LabArtifacts.class);
    private final Path project;
    private final Path labDir;

    LabArtifacts() {
        this.project = Path.of(System.getProperty("user.dir")).toAbsolutePath();
        this.labDir = project.resolve("target/lab");
    }

    Path labDir() {
        return labDir;
    }

    Path identity() {
        return labDir.resolve("ssh/id_ed25519");
    }

    /** The busybox guest's built disks ({@code disk.img}, {@code disk-iommu-off.img}), see build-fast-guest.sh. */
    Path fastGuest() throws IOException {
        requireTools();
        Tools.require("dropbear", "dropbear-bin");
        Tools.require("cpio", "cpio");
        Tools.require("mke2fs", "e2fsprogs");
        Tools.require("debugfs", "e2fsprogs");
        return Path.of(script("build-fast-guest.sh", labDir.toString()));
    }

    /** The installed Debian disk image of a personality ({@code grub} or {@code pve}), built by prepare-as-root.sh. */
    Path installedDisk(String personality) throws IOException {
        requireTools();
        Tools.require("debugfs", "e2fsprogs");
        List<String> cmd = new ArrayList<>(List.of("bash", project.resolve("src/test/lab/prepare-as-root.sh").toString(),
                "--where", labDir.toString()));
        Result r = locked(cmd);
        if (r.code != 0) {
            String message = "The lab's Debian guests are not built: run 'sudo src/test/lab/prepare-as-root.sh' (root is"
                    + " needed for mmdebstrap) before the tests. " + r.output.strip();
            if ("true".equals(System.getenv("CI"))) {
                throw new AssertionError(message);
            }
            Assumptions.abort(message);
        }
        Path disk = Path.of(r.output.strip().lines().reduce((a, b) -> b).orElse("")).resolve(personality + ".img");
        if (!Files.isReadable(disk)) {
            throw new AssertionError(disk + " is missing or unreadable: run 'sudo src/test/lab/prepare-as-root.sh' again");
        }
        return disk;
    }

    /** The uncompressed kernel of a bzImage, cached by its content (boots seconds faster under TCG). */
    Path vmlinux(Path bzImage) throws IOException {
        return Path.of(script("extract-vmlinux.sh", bzImage.toString(), labDir.resolve("vmlinux").toString()));
    }

    private static void requireTools() {
        Tools.require("qemu-system-x86_64", "qemu-system-x86");
        Tools.require("apt-get", "apt");
        Tools.require("xz", "xz-utils");
    }

    private String script(String name, String... args) throws IOException {
        List<String> cmd = new ArrayList<>(List.of("bash", project.resolve("src/test/lab/" + name).toString()));
        cmd.addAll(List.of(args));
        Result r = locked(cmd);
        if (r.code != 0) {
            throw new IOException(name + " failed (exit " + r.code + "):\n" + r.output);
        }
        String last = r.output.strip().lines().reduce((a, b) -> b).orElse("");
        LOG.info("{}: {}", name, last);
        return last;
    }

    private record Result(int code, String output) {
    }

    /**
     * Runs a build script holding {@code target/lab/.build.lock}: the test JVMs take classes in turn, so two lab classes
     * can start at once, and each would otherwise build the same guest into the same directory.
     */
    private Result locked(List<String> cmd) throws IOException {
        Files.createDirectories(labDir);
        try (FileChannel lock = FileChannel.open(labDir.resolve(".build.lock"), StandardOpenOption.CREATE,
                StandardOpenOption.WRITE); FileLock held = lock.lock()) {
            return exec(cmd);
        }
    }

    private static Result exec(List<String> cmd) throws IOException {
        Path log = Files.createTempFile("gpuforge-lab-", ".log");
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile())).start();
            if (!p.waitFor(20, TimeUnit.MINUTES)) {
                p.destroyForcibly();
                throw new IOException(String.join(" ", cmd) + " did not finish in 20 minutes");
            }
            return new Result(p.exitValue(), Files.readString(log, StandardCharsets.UTF_8));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted: " + String.join(" ", cmd), e);
        } finally {
            Files.deleteIfExists(log);
        }
    }
}
