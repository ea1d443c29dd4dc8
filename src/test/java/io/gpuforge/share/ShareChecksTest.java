package io.gpuforge.share;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpuforge.domain.host.HostFacts;
import io.gpuforge.domain.passthrough.Check;
import io.gpuforge.domain.passthrough.PlanBlockedException;
import io.gpuforge.domain.passthrough.Verdict;
import io.gpuforge.domain.pci.PciAddress;
import io.gpuforge.domain.share.ContainerDevice;
import io.gpuforge.domain.share.ShareReadiness;
import io.gpuforge.host.probe.HostProbe;
import io.gpuforge.testing.HostTrees;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Whether a host's GPU can be shared with containers, read by the real probe from test hosts. */
class ShareChecksTest {

    @TempDir
    Path dir;

    private HostFacts facts(Path root) throws Exception {
        return new HostProbe().probeLocal(Optional.of(root));
    }

    @Test
    void anNvidiaGpuOnItsDriverIsSharedOnceTheBootUnitMakesItsNodes() throws Exception {
        HostFacts f = facts(HostTrees.proxmoxSharedGpus(dir.resolve("root")));
        ShareReadiness r = ShareChecks.evaluate(f, PciAddress.parse("0000:07:00.0"));
        assertThat(r.vendor()).contains("NVIDIA");
        assertThat(r.hostDriver()).contains("nvidia");
        assertThat(r.driverVersion()).contains("550.54.14");
        assertThat(r.proxmoxVersion()).contains("8.2.4");
        assertThat(r.verdict().kind()).isEqualTo(Verdict.Kind.NEEDS_HOST_SETUP);
        assertThat(r.checks()).extracting(Check::key).containsExactly("share.driver.pass", "share.proxmox.pass",
                "share.nodes.uvm");
        assertThat(r.devices()).extracting(ContainerDevice::value).containsExactly("/dev/nvidia0", "/dev/nvidiactl",
                "/dev/nvidia-uvm", "/dev/nvidia-uvm-tools");
    }

    @Test
    void anIntelIgpuGivesItsCardAndRenderNodeWithTheHostsGroups() throws Exception {
        HostFacts f = facts(HostTrees.proxmoxSharedGpus(dir.resolve("root")));
        ShareReadiness r = ShareChecks.evaluate(f, PciAddress.parse("0000:00:02.0"));
        assertThat(r.verdict().kind()).isEqualTo(Verdict.Kind.READY);
        assertThat(r.driverVersion()).contains("in-kernel i915 (kernel 6.8.12-4-pve)");
        assertThat(r.devices()).extracting(ContainerDevice::value).containsExactly("/dev/dri/card0,gid=44",
                "/dev/dri/renderD128,gid=104");
        assertThat(f.files().get("/etc/group")).as("only the two groups, no user names").isEqualTo(
                "video:x:44:\nrender:x:104:\n");
    }

    @Test
    void aGpuOnVfioAnOldProxmoxOrMissingNodesAreRefusedWithTheReason() throws Exception {
        HostFacts passedThrough = facts(HostTrees.proxmoxSystemdBoot(dir.resolve("pt")));
        ShareReadiness vfio = ShareChecks.evaluate(passedThrough, PciAddress.parse("0000:81:00.0"));
        assertThat(vfio.verdict().kind()).isEqualTo(Verdict.Kind.BLOCKED);
        assertThat(vfio.checks()).extracting(Check::key).contains("share.driver.vfio", "share.proxmox.unknown");
        assertThat(vfio.devices()).isEmpty();
        assertThatThrownBy(() -> SharePlanner.plan(passedThrough, PciAddress.parse("0000:81:00.0")))
                .isInstanceOf(PlanBlockedException.class).hasMessageContaining("share.driver");

        Path old = HostTrees.proxmoxSharedGpus(dir.resolve("old"));
        Files.writeString(old.resolve("usr/share/perl5/PVE/pvecfg.pm"), "sub version {\n    return '8.0.4';\n}\n");
        Files.delete(old.resolve("dev/dri/renderD128"));
        HostFacts f = facts(old);
        ShareReadiness oldPve = ShareChecks.evaluate(f, PciAddress.parse("0000:00:02.0"));
        assertThat(oldPve.checks()).extracting(Check::key).containsExactly("share.driver.pass", "share.proxmox.old",
                "share.nodes.dri");
        assertThat(oldPve.checks().get(1).args()).containsExactly("8.0.4");
        assertThat(oldPve.verdict().because()).containsExactly("share.proxmox", "share.nodes");
    }

    @Test
    void containerDeviceEntriesReadAndWriteProxmoxsFormat() {
        ContainerDevice d = ContainerDevice.parse("path=/dev/dri/renderD128,gid=104,mode=0660").orElseThrow();
        assertThat(d.value()).isEqualTo("/dev/dri/renderD128,gid=104,mode=0660");
        assertThat(ContainerDevice.parse("/dev/nvidia0").orElseThrow().value()).isEqualTo("/dev/nvidia0");
        assertThat(ContainerDevice.parse("/dev/dri/card0,gid=x")).isEmpty();
        assertThat(ContainerDevice.parse("/etc/shadow")).isEmpty();
        assertThat(ContainerDevice.parse("/dev/../etc/shadow")).isEmpty();
        assertThat(ContainerDevice.parse("/dev/x,mode=777")).isEmpty();
    }
}
