package io.gpuforge.lab;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Scenario 1, the host-critical cases and scenario 2 on the busybox guest (stock Debian kernel, busybox + dropbear,
 * real IOMMU groups, the lab's stand-in boot tools): what {@code gpuforge} reports over SSH against what the guest's
 * kernel reports.
 */
@Tag("lab")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class IommuLabTest {

    @RegisterExtension
    static final LabExtension LAB = LabExtension.busybox();

    @Test
    @Order(1)
    void iommuOverSshEqualsTheGroupsTheGuestKernelReports() throws Exception {
        GuestTruth truth = GuestTruth.read(LAB.machine());
        JsonNode doc = LAB.cli().json("iommu", "--json");

        assertThat(doc.get("iommu").asText()).isEqualTo("enabled");
        Map<String, String> reported = new TreeMap<>();
        for (JsonNode g : doc.get("groups")) {
            for (JsonNode d : g.get("devices")) {
                reported.put(d.get("address").asText(), g.get("group").asInt() + " " + d.get("vendor").asText() + ":"
                        + d.get("device").asText() + " " + (d.get("driver").isNull() ? "-" : d.get("driver").asText()));
            }
        }
        Map<String, String> expected = new TreeMap<>();
        truth.devices().values().stream().filter(d -> d.group().isPresent()).forEach(d -> expected.put(d.address(),
                d.group().get() + " " + d.vendor() + ":" + d.device() + " " + d.driver().orElse("-")));
        assertThat(reported).as("group, ids and driver of every device, gpuforge vs the guest's sysfs")
                .isEqualTo(expected);

        // the topology's groups as the kernel formed them
        assertThat(truth.group(Topology.GPU_AUDIO)).isEqualTo(truth.group(Topology.GPU));
        assertThat(truth.group(Topology.SHARED_VIRTIO)).isEqualTo(truth.group(Topology.SHARED_E1000))
                .isEqualTo(truth.group(Topology.BRIDGE));
        JsonNode gpu = gpu(doc, Topology.GPU);
        assertThat(gpu.get("group").asInt()).isEqualTo(truth.group(Topology.GPU));
        assertThat(gpu.get("isolation").asText()).isEqualTo("isolated");
        assertThat(gpu.get("functions").toString()).contains(Topology.GPU, Topology.GPU_AUDIO);
    }

    @Test
    @Order(2)
    void theManagementNicIsRefused() throws Exception {
        // the NIC of the default route is virtio-net: its /sys/class/net/IF/device link names the virtio device
        JsonNode check = LAB.cli().json("check", "--device", Topology.MGMT_NIC, "--json");
        assertThat(check.get("checks").toString()).as("check of the management NIC: %s", check)
                .contains("management NIC " + Topology.MGMT_NIC);
        assertThat(status(check, "group.host-critical")).isEqualTo("fail");
        LabCli.Run plan = LAB.cli().run("plan", "--device", Topology.MGMT_NIC);
        assertThat(plan.code()).as("plan for the management NIC must be refused: %s", plan.all()).isNotZero();
    }

    @Test
    @Order(3)
    void theBootConsoleGpuIsRefusedWithoutTheNamedOverride() throws Exception {
        LAB.machine().rebootWithoutBootConsole();
        GuestTruth truth = GuestTruth.read(LAB.machine());
        assertThat(truth.device(Topology.GPU).bootVga()).as("the stand-in GPU is the boot VGA in this topology").isTrue();

        JsonNode check = LAB.cli().json("check", "--device", Topology.GPU, "--json");
        assertThat(check.get("verdict").asText()).isEqualTo("blocked");
        assertThat(status(check, "group.host-critical")).isEqualTo("fail");
        assertThat(check.get("checks").toString()).contains("boot console GPU " + Topology.GPU);
        LabCli.Run refused = LAB.cli().run("plan", "--device", Topology.GPU);
        assertThat(refused.code()).isNotZero();
        assertThat(refused.err()).contains("group.host-critical");

        LabCli.Run allowed = LAB.cli().run("plan", "--device", Topology.GPU, "--allow-host-critical");
        assertThat(allowed.code()).as(allowed.all()).isZero();
        assertThat(allowed.out()).contains("initcall_blacklist=sysfb_init").contains("boot console");
    }

    @Test
    @Order(4)
    void iommuOffIsReportedWithTheKernelFixAndThePlansFixTurnsItOn() throws Exception {
        // the host of an admin whose command line turns the IOMMU off (Debian's kernel has it on by default, so
        // only intel_iommu=off does): a fresh disk installed so, not a rollback of the cases before
        LAB.machine().bootFresh("disk-iommu-off.img");
        assertThat(LAB.machine().bootedCmdline()).contains("intel_iommu=off");
        assertThat(LAB.machine().sh("ls /sys/kernel/iommu_groups | wc -l").strip()).as("IOMMU groups").isEqualTo("0");

        JsonNode check = LAB.cli().json("check", "--device", Topology.GPU, "--json");
        assertThat(status(check, "iommu.kernel")).as("check: %s", check).isEqualTo("fail");
        JsonNode kernel = null;
        for (JsonNode c : check.get("checks")) {
            if (c.get("id").asText().equals("iommu.kernel")) {
                kernel = c;
            }
        }
        assertThat(kernel.get("message").asText()).contains("intel_iommu=off");
        assertThat(kernel.get("fix").asText()).as("the kernel fix").contains("intel_iommu=off");

        JsonNode plan = LAB.cli().json("plan", "--device", Topology.GPU, "--json");
        String grubAfter = null;
        for (JsonNode e : plan.get("edits")) {
            if (e.get("path").asText().equals("/etc/default/grub")) {
                grubAfter = e.get("after").asText();
            }
        }
        assertThat(grubAfter).as("the plan's /etc/default/grub").isNotNull().doesNotContain("intel_iommu=off");
        LabCli.Run apply = LAB.cli().run("apply", "--device", Topology.GPU, "--yes");
        assertThat(apply.code()).as(apply.all()).isZero();
        LAB.machine().reboot();
        String cmdline = LAB.machine().sh("cat /proc/cmdline").strip();
        assertThat(cmdline).contains("intel_iommu=on").doesNotContain("intel_iommu=off");
        assertThat(LAB.machine().sh("ls /sys/kernel/iommu_groups | wc -l").strip()).as("IOMMU groups").isNotEqualTo("0");
        JsonNode on = LAB.cli().json("check", "--device", Topology.GPU, "--json");
        assertThat(status(on, "iommu.kernel")).isEqualTo("pass");
    }

    static JsonNode gpu(JsonNode doc, String address) {
        for (JsonNode g : doc.get("gpus")) {
            if (g.get("address").asText().equals(address)) {
                return g;
            }
        }
        throw new AssertionError("gpuforge reports no GPU " + address + ": " + doc.get("gpus"));
    }

    static String status(JsonNode check, String id) {
        for (JsonNode c : check.get("checks")) {
            if (c.get("id").asText().equals(id)) {
                return c.get("status").asText();
            }
        }
        throw new AssertionError("no check " + id + " in " + check);
    }

    static Optional<JsonNode> item(JsonNode verify, String id) {
        for (JsonNode i : verify.get("items")) {
            if (i.get("id").asText().equals(id)) {
                return Optional.of(i);
            }
        }
        return Optional.empty();
    }
}
