package io.gpuforge.lab;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Scenario 4: the Proxmox-style guest (systemd-boot through /etc/kernel/cmdline and the proxmox-boot-tool
 * stand-in, see src/test/lab/README.md): plan → apply → reboot → verify, then rollback → reboot. Tagged
 * {@code lab-debian} like {@link GrubLabTest}: {@code mvn -B verify -Dgroups=lab-debian} runs it.
 */
@Tag("lab-debian")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ProxmoxLabTest {

    @RegisterExtension
    static final LabExtension LAB = LabExtension.pve();
    private static PassthroughFlow flow;

    private static LabHost host() {
        return new LabHost(LAB.machine(), LabHost.Boot.SYSTEMD_BOOT);
    }

    @Test
    @Order(1)
    void planApplyRebootVerifyThroughKernelCmdlineAndProxmoxBootTool() throws Exception {
        JsonNode check = LAB.cli().json("check", "--json");
        assertThat(check.toString()).doesNotContain("bootloader: neither");
        flow = new PassthroughFlow(LAB, LabHost.Boot.SYSTEMD_BOOT);
        JsonNode plan = flow.planAndRemember(Topology.GPU);
        assertThat(LabHost.paths(plan)).contains("/etc/kernel/cmdline").doesNotContain("/etc/default/grub");
        assertThat(plan.get("commands").toString()).contains("proxmox-boot-tool refresh");
        flow.apply(Topology.GPU);
        assertThat(host().nextBootArgs()).as("the loader entry proxmox-boot-tool refresh wrote").contains("iommu=pt");

        JsonNode verify = flow.rebootAndVerify();
        assertThat(verify.get("ok").asBoolean()).as("gpuforge verify: %s", verify).isTrue();
        GuestTruth t = host().truth();
        assertThat(t.driver(Topology.GPU)).isEqualTo("vfio-pci");
        assertThat(t.driver(Topology.GPU_AUDIO)).isEqualTo("vfio-pci");
        assertThat(t.driver(Topology.TWIN_AUDIO)).isEqualTo("snd_hda_intel");
        assertThat(host().exists("/dev/vfio/" + t.group(Topology.GPU))).isTrue();
    }

    @Test
    @Order(2)
    void rollbackThenRebootGivesTheOriginalBack() throws Exception {
        flow.rollback();
        flow.rebootAndExpectTheOriginal();
    }
}
