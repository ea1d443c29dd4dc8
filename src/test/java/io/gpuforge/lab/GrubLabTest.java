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
 * Scenario 3 on the Debian guest with GRUB: the real update-initramfs and update-grub, plan → apply → reboot →
 * verify, then rollback → reboot with every file byte-identical. Tagged {@code lab-debian}: its preparation (a
 * Debian root, prepare-as-root.sh) and its minutes of update-initramfs under emulation do not fit CI's budget
 * (numbers in src/test/lab/README.md); {@code mvn -B verify -Dgroups=lab-debian} runs it.
 */
@Tag("lab-debian")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class GrubLabTest {

    @RegisterExtension
    static final LabExtension LAB = LabExtension.grub();
    private static PassthroughFlow flow;

    private static LabHost host() {
        return new LabHost(LAB.machine(), LabHost.Boot.GRUB);
    }

    @Test
    @Order(1)
    void planApplyRebootVerifyPutsBothGpuFunctionsOnVfio() throws Exception {
        flow = new PassthroughFlow(LAB, LabHost.Boot.GRUB);
        JsonNode plan = flow.planAndRemember(Topology.GPU);
        assertThat(plan.get("functions").toString()).contains(Topology.GPU, Topology.GPU_AUDIO);
        assertThat(flow.plannedArgs()).contains("iommu=pt");
        flow.apply(Topology.GPU);
        assertThat(host().nextBootArgs()).as("grub.cfg that update-grub regenerated").contains("iommu=pt");

        JsonNode verify = flow.rebootAndVerify();
        assertThat(verify.get("ok").asBoolean()).as("gpuforge verify: %s", verify).isTrue();
        GuestTruth t = host().truth();
        assertThat(t.driver(Topology.GPU)).isEqualTo("vfio-pci");
        assertThat(t.driver(Topology.GPU_AUDIO)).isEqualTo("vfio-pci");
        assertThat(host().exists("/dev/vfio/" + t.group(Topology.GPU))).as("/dev/vfio/<group of the GPU>").isTrue();
    }

    @Test
    @Order(2)
    void rollbackThenRebootGivesTheOriginalDriversAndEveryFileByteIdentical() throws Exception {
        flow.rollback();
        flow.rebootAndExpectTheOriginal();
        assertThat(host().truth().driver(Topology.GPU)).isEqualTo("bochs-drm");
    }
}
