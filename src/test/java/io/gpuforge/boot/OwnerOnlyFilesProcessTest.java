package io.gpuforge.boot;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.testing.CliProcess;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code gpuforge} command started from a shell whose umask is 022, as a new user does: connect the Demo lab and
 * create a VM with a password. Every file GPUForge made (settings, the SQLite database with its WAL and SHM, the
 * vault, the log) is {@code 0600} and every directory {@code 0700}; a file an earlier version left {@code 0644} is
 * tightened at the start.
 */
class OwnerOnlyFilesProcessTest {

    @TempDir
    Path dir;

    @Test
    void underUmask022EveryFileGpuforgeMakesIsTheUsersAlone() throws Exception {
        Path appHome = dir.resolve("gpuforge");
        Path leftover = Files.createDirectories(appHome.resolve("data")).resolve("tasks-export.csv");
        Files.writeString(leftover, "when,what\n");
        Files.setPosixFilePermissions(leftover, PosixFilePermissions.fromString("rw-r--r--"));
        Files.setPosixFilePermissions(appHome.resolve("data"), PosixFilePermissions.fromString("rwxr-xr-x"));
        CliProcess cli = new CliProcess(dir.resolve("user-home"), appHome).withUmask("022").withTheShippedLog();

        CliProcess.Result add = cli.run(Map.of(), "", "connection", "add", "Demo lab", "--demo");
        assertThat(add.exit()).as(add.err()).isZero();
        assertThat(appHome.resolve("data/gpuforge.db")).as("made by this run").exists();
        assertThat(appHome.resolve("logs/gpuforge.log")).as("made by this run").exists();
        assertThat(open(appHome)).as("after the first run: readable by the group or others").isEmpty();

        CliProcess.Result create = cli.run(Map.of(), "a password\n", "vm", "create", "--connection", "Demo lab",
                "--node", "pve-3090", "--template", "ubuntu-cuda", "--name", "t1", "--password-stdin");
        assertThat(create.exit()).as(create.err() + create.out()).isZero();
        assertThat(open(appHome)).as("after a VM create: readable by the group or others").isEmpty();
        try (Stream<Path> all = Files.walk(appHome)) {
            assertThat(all.count()).as("the database, its journal, the settings, the log: a real run's files")
                    .isGreaterThanOrEqualTo(6);
        }
    }

    /**
     * What under {@code root} is not 0600 (a file) or 0700 (a directory), with its mode. Symbolic links (the Demo lab's
     * simulated sysfs has them) are left out: Linux gives every link 0777 and never reads it; what a link points to
     * is checked as itself.
     */
    private static List<String> open(Path root) throws Exception {
        try (Stream<Path> all = Files.walk(root)) {
            return all.filter(p -> !Files.isSymbolicLink(p)).filter(p -> !mode(p).equals(Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS) ? "rwx------"
                    : "rw-------")).map(p -> root.relativize(p) + " " + mode(p)).toList();
        }
    }

    private static String mode(Path p) {
        try {
            return PosixFilePermissions.toString(Files.getPosixFilePermissions(p, LinkOption.NOFOLLOW_LINKS));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
