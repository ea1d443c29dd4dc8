package io.gpuforge.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gpuforge.app.AppPaths;
import io.gpuforge.domain.host.HostFacts;
import io.gpuforge.host.probe.HostProbe;
import io.gpuforge.host.snapshot.Snapshot;
import io.gpuforge.testing.HostTrees;
import io.gpuforge.testing.SysrootSshServer;
import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import io.gpuforge.cli.common.CliOutput;

/** {@code gpuforge snapshot --ssh … -o x.tar.gz} and reading it back with {@code --sysroot x.tar.gz}. */
class SnapshotCommandTest {

    @TempDir
    Path dir;

    private String run(String stdin, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = GpuForgeCli.run(args, AppPaths.underHome(dir.resolve("home")),
                new CliOutput(new PrintWriter(out), new PrintWriter(err)),
                new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)));
        assertThat(code).as("stderr: %s", err).isZero();
        return out.toString();
    }

    @Test
    void aSnapshotOverSshReadsBackToTheSameFacts() throws Exception {
        Path root = HostTrees.proxmoxSystemdBoot(dir.resolve("root"));
        Path archive = dir.resolve("pve-gpu1.tar.gz");
        try (SysrootSshServer server = new SysrootSshServer(root, dir.resolve("key.ser"))) {
            String msg = run(SysrootSshServer.PASSWORD + "\n", "snapshot", "--ssh", "root@127.0.0.1:" + server.port(),
                    "--known-hosts", dir.resolve("kh").toString(), "--accept-new-host-key", "--password-stdin",
                    "-o", archive.toString());
            assertThat(msg).startsWith("Snapshot of ssh:root@127.0.0.1:");
            assertThat(server.execChannels()).isEqualTo(1);
        }
        assertThat(Files.size(archive)).isGreaterThan(1000);

        ObjectMapper m = new ObjectMapper();
        ObjectNode fromArchive = (ObjectNode) m.readTree(run("", "iommu", "--sysroot", archive.toString(), "--json"));
        ObjectNode fromDir = (ObjectNode) m.readTree(run("", "iommu", "--sysroot", root.toString(), "--json"));
        assertThat(fromArchive.get("source").asText()).startsWith("snapshot:");
        fromArchive.remove("source");
        fromDir.remove("source");
        assertThat(fromArchive).isEqualTo(fromDir);
        JsonNode gpu = fromArchive.get("groups").get(4).get("devices").get(0);
        assertThat(gpu.get("name").asText()).isEqualTo("NVIDIA Corporation GA102 [GeForce RTX 3090]");

        Path unpacked = Snapshot.unpack(archive);
        try {
            HostFacts back = new HostProbe().probeLocal(Optional.of(unpacked));
            HostFacts orig = new HostProbe().probeLocal(Optional.of(root));
            assertThat(back.summary()).isEqualTo(orig.summary());
            assertThat(back.boot()).isEqualTo(orig.boot());
            assertThat(back.modprobe()).isEqualTo(orig.modprobe());
            assertThat(back.rootDevices()).isEqualTo(orig.rootDevices()).hasSize(2);
            assertThat(back.managementDevices()).isEqualTo(orig.managementDevices()).hasSize(1);
            assertThat(back.interruptRemapping()).isEqualTo(orig.interruptRemapping());
            assertThat(back.pci()).isEqualTo(orig.pci());
            assertThat(back.proxmox()).isTrue();
        } finally {
            Snapshot.deleteTree(unpacked);
        }
    }

    private static void tar(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of("tar"));
        command.addAll(List.of(args));
        Process tar = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(tar.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(tar.waitFor()).as(out).isZero();
    }

    @Test
    void aSnapshotFromSomeoneElseWithALinkOutOfItIsRefused() throws Exception {
        Path archive = dir.resolve("pve-gpu1.tar.gz");
        try (SysrootSshServer server = new SysrootSshServer(HostTrees.proxmoxSystemdBoot(dir.resolve("root")),
                dir.resolve("key.ser"))) {
            run(SysrootSshServer.PASSWORD + "\n", "snapshot", "--ssh", "root@127.0.0.1:" + server.port(),
                    "--known-hosts", dir.resolve("kh").toString(), "--accept-new-host-key", "--password-stdin",
                    "-o", archive.toString());
        }
        // the sender's edit: a block device link aimed at the admin's home directory
        Path home = Files.createDirectories(dir.resolve("home/u"));
        Path tree = Files.createDirectories(dir.resolve("tree"));
        tar("-xzf", archive.toString(), "-C", tree.toString());
        Path link = tree.resolve("sys/class/block/nvme0n1p3");
        assertThat(Files.isSymbolicLink(link)).isTrue();
        Files.delete(link);
        Files.createSymbolicLink(link, Path.of("../../" + "../".repeat(30) + home.toString().substring(1)));
        Path edited = dir.resolve("from-a-forum.tar.gz");
        tar("-czf", edited.toString(), "-C", tree.toString(), ".");

        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = GpuForgeCli.run(new String[] {"iommu", "--sysroot", edited.toString()},
                AppPaths.underHome(dir.resolve("home")), new CliOutput(new PrintWriter(out), new PrintWriter(err)),
                new ByteArrayInputStream(new byte[0]));
        assertThat(code).isEqualTo(1);
        assertThat(err.toString()).contains("holds a link /sys/class/block/nvme0n1p3 -> ")
                .contains("its target points outside the snapshot");
        assertThat(out.toString()).isEmpty();
    }

    @Test
    void aSnapshotOfTheLocalMachine() throws Exception {
        Path archive = dir.resolve("local.tar.gz");
        run("", "snapshot", "-o", archive.toString());
        JsonNode doc = new ObjectMapper().readTree(run("", "iommu", "--sysroot", archive.toString(), "--json"));
        JsonNode live = new ObjectMapper().readTree(run("", "iommu", "--json"));
        assertThat(doc.get("iommu")).isEqualTo(live.get("iommu"));
        assertThat(doc.get("groups")).isEqualTo(live.get("groups"));
    }
}
