package io.gpuforge.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpuforge.domain.passthrough.ApplyOutcome;
import io.gpuforge.domain.host.HostFacts;
import io.gpuforge.domain.passthrough.PassthroughPlan;
import io.gpuforge.domain.pci.PciAddress;
import io.gpuforge.domain.pci.PciDevice;
import io.gpuforge.domain.passthrough.PlanOptions;
import io.gpuforge.host.apply.HostConfigurator;
import io.gpuforge.host.probe.HostProbe;
import io.gpuforge.host.HostShell;
import io.gpuforge.host.ProbeException;
import io.gpuforge.passthrough.Planner;
import io.gpuforge.passthrough.Verifier;
import java.nio.file.Files;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import io.gpuforge.testing.Eventually;

/**
 * The Demo lab's simulated hosts behave like hosts: GPUForge's own probe and apply work on them unchanged, refresh
 * commands are recorded, a reboot takes the host away and it comes back with what its boot files say.
 */
class SimHostTest {

    private final SimCluster cluster = SimCluster.demo();
    private final SimHosts hosts = new SimHosts(cluster);

    @AfterEach
    void close() {
        hosts.close();
    }

    private static HostFacts probe(SimHost h) throws ProbeException {
        try (HostShell s = h.shell()) {
            return new HostProbe().probe(s, false);
        }
    }

    private static String driver(HostFacts f, String address) {
        return f.pci().device(PciAddress.parse(address)).flatMap(PciDevice::driver).orElse("none");
    }

    @Test
    void aPlanTakesEffectOnlyAfterTheRebootAndOnlyThroughTheHostsOwnBootFiles() throws Exception {
        SimHost h = hosts.host("pve-3090").orElseThrow().rebootTakes(Duration.ofMillis(300)).lineDelay(Duration.ZERO);
        HostFacts before = probe(h);
        assertThat(before.summary().hostname()).isEqualTo("pve-3090");
        assertThat(before.pci().groups()).isNotEmpty();
        assertThat(driver(before, "0000:02:00.0")).isEqualTo("nvidia");
        assertThat(before.proxmox()).isTrue();

        PassthroughPlan plan = Planner.plan(before, PciAddress.parse("0000:02:00.0"), PlanOptions.defaults());
        assertThat(plan.commands()).contains("proxmox-boot-tool refresh", "update-initramfs -u -k all");
        try (HostShell s = h.shell()) {
            ApplyOutcome done = new HostConfigurator(s, Optional.empty(), false, Clock.systemUTC()).apply(plan);
            assertThat(done.status()).isEqualTo(ApplyOutcome.Status.APPLIED);
        }
        assertThat(h.commands()).extracting(SimHost.Recorded::command)
                .containsExactlyElementsOf(plan.commands());
        assertThat(Files.readString(h.root().resolve("etc/kernel/cmdline"))).contains("iommu=pt");

        HostFacts notRebooted = probe(h);
        assertThat(notRebooted.cmdline().orElseThrow()).doesNotContain("iommu=pt");
        assertThat(driver(notRebooted, "0000:02:00.0")).isEqualTo("nvidia");

        try (HostShell s = h.shell()) {
            assertThat(s.run("systemctl reboot", new byte[0], Duration.ofSeconds(5)).exitCode()).isZero();
        }
        assertThatThrownBy(() -> probe(h)).isInstanceOf(ProbeException.class).hasMessageContaining("rebooting");
        Eventually.until("the simulated host back up", Duration.ofSeconds(30), () -> h.up());
        HostFacts after = probe(h);
        assertThat(after.cmdline().orElseThrow()).contains("iommu=pt");
        assertThat(driver(after, "0000:02:00.0")).isEqualTo("vfio-pci");
        assertThat(driver(after, "0000:02:00.1")).isEqualTo("vfio-pci");
        assertThat(driver(after, "0000:03:00.0")).as("the identical card next to it stays with the host")
                .isEqualTo("nvidia");
        assertThat(Verifier.verify(after, plan.functions(), List.of("iommu=pt"))).allMatch(v -> v.ok());
    }

    @Test
    void anEditWithoutItsRefreshCommandChangesNothingAtTheNextBoot() throws Exception {
        SimHost h = hosts.host("pve-4090").orElseThrow().rebootTakes(Duration.ZERO);
        Files.writeString(h.root().resolve("etc/default/grub"), "GRUB_CMDLINE_LINUX_DEFAULT=\"quiet iommu=pt amd_iommu=off\"\n");
        h.reboot("test");
        assertThat(h.up()).isTrue();
        HostFacts f = probe(h);
        assertThat(f.cmdline().orElseThrow()).doesNotContain("amd_iommu=off");
        assertThat(f.pci().groups()).isNotEmpty();
        assertThat(driver(f, "0000:01:00.0")).as("passed through by an earlier apply").isEqualTo("vfio-pci");
        assertThat(driver(f, "0000:02:00.0")).isEqualTo("nvidia");
        assertThat(f.files()).containsKey("/var/lib/gpuforge/journal.json");
    }

    @Test
    void aRebootAskedThroughTheClustersApiRebootsTheNodesHost() throws Exception {
        SimHost h = hosts.host("pve-4090").orElseThrow().rebootTakes(Duration.ofSeconds(30));
        synchronized (cluster) {
            cluster.task("pve-4090", "srvreboot", "", "root@pam", () -> { });
        }
        assertThat(hosts.host("pve-4090").orElseThrow().up()).isFalse();
        assertThat(h.commands()).singleElement().satisfies(r -> assertThat(r.command()).startsWith("reboot (Proxmox VE API"));
    }

    @Test
    void theHostRunsNothingButGpuforgesScriptsItsRefreshCommandsAndReboot() throws Exception {
        SimHost h = hosts.host("pve-4090").orElseThrow();
        try (HostShell s = h.shell()) {
            HostShell.Result r = s.run("rm -rf /", new byte[0], Duration.ofSeconds(5));
            assertThat(r.exitCode()).isEqualTo(127);
            assertThat(r.stderr()).contains("simulated host");
        }
        assertThat(h.commands()).isEmpty();
    }
}
