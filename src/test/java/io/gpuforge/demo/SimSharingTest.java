package io.gpuforge.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.domain.passthrough.ApplyOutcome;
import io.gpuforge.domain.passthrough.PassthroughPlan;
import io.gpuforge.domain.passthrough.Verdict;
import io.gpuforge.domain.pci.PciAddress;
import io.gpuforge.domain.share.ContainerDevice;
import io.gpuforge.domain.share.ShareReadiness;
import io.gpuforge.host.apply.HostConfigurator;
import io.gpuforge.host.probe.HostProbe;
import io.gpuforge.host.HostShell;
import io.gpuforge.share.ShareChecks;
import io.gpuforge.share.SharePlanner;
import java.nio.file.Files;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The Demo lab's pve-3090 shares its fourth RTX 3090 with containers: its simulated host shows the NVIDIA driver
 * as a real one does, the host plan's boot unit applies there and makes /dev/nvidia-uvm, which the simulated
 * Proxmox checks before it starts a container.
 */
class SimSharingTest {

    private final SimCluster cluster = SimCluster.demo();
    private final SimHosts hosts = new SimHosts(cluster);

    @AfterEach
    void close() {
        hosts.close();
    }

    @Test
    void theFourth3090IsSharedOnceTheHostPlanMakesItsNodes() throws Exception {
        SimHost h = hosts.host("pve-3090").orElseThrow().lineDelay(Duration.ZERO);
        PciAddress gpu = PciAddress.parse("0000:04:00.0");
        ShareReadiness before;
        try (HostShell s = h.shell()) {
            before = ShareChecks.evaluate(new HostProbe().probe(s, false), gpu);
        }
        assertThat(before.driverVersion()).contains("550.127.05");
        assertThat(before.proxmoxVersion()).contains("8.4.1");
        assertThat(before.verdict().kind()).isEqualTo(Verdict.Kind.NEEDS_HOST_SETUP);
        assertThat(before.devices()).extracting(ContainerDevice::path).containsExactly("/dev/nvidia3",
                "/dev/nvidiactl", "/dev/nvidia-uvm", "/dev/nvidia-uvm-tools");
        assertThat(cluster.containers.devices(cluster, "pve-3090")).doesNotContain("/dev/nvidia-uvm");

        try (HostShell s = h.shell()) {
            PassthroughPlan plan = SharePlanner.plan(new HostProbe().probe(s, false), gpu);
            ApplyOutcome done = new HostConfigurator(s, Optional.empty(), false, Clock.systemUTC()).apply(plan);
            assertThat(done.status()).isEqualTo(ApplyOutcome.Status.APPLIED);
            assertThat(ShareChecks.evaluate(new HostProbe().probe(s, false), gpu).verdict().kind())
                    .isEqualTo(Verdict.Kind.READY);
        }
        assertThat(Files.exists(h.root().resolve("etc/systemd/system/" + SharePlanner.UNIT))).isTrue();
        assertThat(cluster.containers.devices(cluster, "pve-3090")).contains("/dev/nvidia3", "/dev/nvidia-uvm");
    }
}
