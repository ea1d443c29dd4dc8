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
 * Scenario 1 and the host-critical cases on the fast guest (stock Debian kernel, busybox + dropbear, real IOMMU
 * groups): what {@code gpuforge} reports over SSH against what the guest's kernel reports.
 */
@Tag("lab")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class IommuLabTest {

    @RegisterExtension
    static final LabExtension LAB = LabExtension.fast();

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
        LAB.machine().rebootAs(Topology.bootVgaCase());
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
