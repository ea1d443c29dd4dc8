package io.gpuforge.share;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.domain.host.HostFacts;
import io.gpuforge.domain.passthrough.PassthroughPlan;
import io.gpuforge.domain.passthrough.Verdict;
import io.gpuforge.domain.pci.PciAddress;
import io.gpuforge.host.apply.HostConfigurator;
import io.gpuforge.host.probe.HostProbe;
import io.gpuforge.host.LocalShell;
import io.gpuforge.testing.HostTrees;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Clock;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The host plan of sharing an NVIDIA GPU with containers, applied and rolled back on a test host by passthrough's own
 * journaled apply: the boot unit written, planned again as nothing to do, and the host byte for byte as before.
 */
class SharePlanApplyTest {

    @TempDir
    Path dir;

    @Test
    void theBootUnitIsAppliedVerifiedAndRolledBackByteForByte() throws Exception {
        Path root = HostTrees.proxmoxSharedGpus(dir.resolve("root"));
        PciAddress gpu = PciAddress.parse("0000:07:00.0");
        Map<String, String> before = tree(root);
        HostFacts f = new HostProbe().probeLocal(Optional.of(root));
        PassthroughPlan plan = SharePlanner.plan(f, gpu);
        assertThat(plan.edits()).extracting(PassthroughPlan.FileEdit::path).containsExactly(SharePlanner.UNIT_PATH);
        String unit = plan.edits().get(0).after();
        assertThat(unit).contains("ExecStart=/usr/bin/nvidia-modprobe -c 0 -u", "Before=pve-guests.service",
                "WantedBy=multi-user.target");
        assertThat(plan.commands()).singleElement().asString().contains("systemctl enable " + SharePlanner.UNIT)
                .contains("rm -f /etc/systemd/system/multi-user.target.wants/" + SharePlanner.UNIT);
        assertThat(plan.rebootNeeded()).isFalse();
        assertThat(plan.vmChanges()).singleElement().satisfies(v -> assertThat(v.snippet()).isEqualTo(
                "dev0: /dev/nvidia0\ndev1: /dev/nvidiactl\ndev2: /dev/nvidia-uvm\ndev3: /dev/nvidia-uvm-tools"));
        assertThat(io.gpuforge.testing.English.english(plan.notes())).anyMatch(n -> n.contains("550.54.14") && n.contains("--no-kernel-module"));

        HostConfigurator host = new HostConfigurator(new LocalShell(), Optional.of(root.toString()), false,
                Clock.systemUTC());
        host.apply(plan);
        assertThat(Files.readString(root.resolve(SharePlanner.UNIT_PATH.substring(1)))).isEqualTo(unit);
        // the nodes themselves appear when the unit runs on a real host: here they are made as it would
        Files.writeString(root.resolve("dev/nvidia-uvm"), "");
        Files.writeString(root.resolve("dev/nvidia-uvm-tools"), "");
        HostFacts after = new HostProbe().probeLocal(Optional.of(root));
        assertThat(ShareChecks.evaluate(after, gpu).verdict().kind()).isEqualTo(Verdict.Kind.READY);
        assertThat(SharePlanner.plan(after, gpu).edits()).as("planned again: nothing to do").isEmpty();
        Files.delete(root.resolve("dev/nvidia-uvm"));
        Files.delete(root.resolve("dev/nvidia-uvm-tools"));

        host.rollback(Optional.empty());
        Map<String, String> back = tree(root);
        back.keySet().removeIf(p -> p.startsWith("var/lib/gpuforge/"));
        assertThat(back).isEqualTo(before);
    }

    @Test
    void anIntelIgpuNeedsNothingOnTheHost() throws Exception {
        Path root = HostTrees.proxmoxSharedGpus(dir.resolve("root"));
        PassthroughPlan plan = SharePlanner.plan(new HostProbe().probeLocal(Optional.of(root)),
                PciAddress.parse("0000:00:02.0"));
        assertThat(plan.edits()).isEmpty();
        assertThat(plan.commands()).isEmpty();
        assertThat(plan.vmChanges().get(0).snippet()).isEqualTo("dev0: /dev/dri/card0,gid=44\n"
                + "dev1: /dev/dri/renderD128,gid=104");
    }

    /**
     * Every regular file under the root with its digest, and every link with its target (the directories an apply
     * made for its files stay, as with passthrough's rollback).
     */
    private static Map<String, String> tree(Path root) throws Exception {
        Map<String, String> out = new TreeMap<>();
        try (Stream<Path> s = Files.walk(root)) {
            for (Path p : s.toList()) {
                String rel = root.relativize(p).toString();
                if (Files.isSymbolicLink(p)) {
                    out.put(rel, "-> " + Files.readSymbolicLink(p));
                } else if (Files.isRegularFile(p)) {
                    out.put(rel, HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                            .digest(Files.readAllBytes(p))));
                }
            }
        }
        return out;
    }
}
