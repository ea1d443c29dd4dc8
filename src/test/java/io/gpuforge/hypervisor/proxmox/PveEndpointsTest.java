package io.gpuforge.hypervisor.proxmox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.gpuforge.demo.PveSimulator;
import io.gpuforge.demo.SimCluster;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The remaining endpoints the product uses, through the client against the simulator. */
class PveEndpointsTest {

    private PveSimulator sim;
    private PveClient c;

    @BeforeEach
    void start() throws Exception {
        sim = new PveSimulator(SimCluster.demo());
        c = sim.tokenClient(PveContract.load());
    }

    @AfterEach
    void stop() {
        sim.close();
    }

    @Test
    void nodeStatusAndReboot() throws Exception {
        assertThat(c.get("/nodes/pve-4090/status", Map.of()).get("pveversion").asText()).startsWith("pve-manager/8.4");
        Upid reboot = Upid.parse(c.post("/nodes/pve-4090/status", Map.of("command", "reboot")).asText());
        assertThat(reboot.type()).isEqualTo("srvreboot");
        assertThatThrownBy(() -> c.post("/nodes/pve-4090/status", Map.of("command", "halt")))
                .satisfies(e -> assertThat(((PveApiException) e).errors()).containsKey("command"));
    }

    @Test
    void mappingsAreCreatedReplacedAndDeleted() throws Exception {
        c.post("/cluster/mapping/pci", Map.of("id", "gpu-3090-b", "map", "node=pve-3090,path=0000:02:00,id=10de:2204,iommugroup=22"));
        c.put("/cluster/mapping/pci/gpu-3090-b", Map.of("map", "node=pve-3090,path=0000:03:00,id=10de:2204,iommugroup=23"));
        PveInventory inv = PveInventory.read(c);
        assertThat(inv.gpus()).extracting(PveInventory.GpuMapping::path).containsExactly("0000:01:00", "0000:01:00",
                "0000:01:00.0", "0000:03:00");
        c.delete("/cluster/mapping/pci/gpu-3090-b", Map.of());
        assertThat(PveInventory.read(c).gpus()).as("gpu-4090-a and the two of the VMs whose start fails").hasSize(3);
    }

    @Test
    void createAVmWithAGpuMapping() throws Exception {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("vmid", "150");
        p.put("name", "cuda-dev");
        p.put("memory", "32768");
        p.put("cores", "8");
        p.put("machine", "q35");
        p.put("bios", "ovmf");
        p.put("balloon", "0");
        p.put("hostpci0", "mapping=gpu-4090-a,pcie=1");
        p.put("efidisk0", "local-zfs:1,efitype=4m,pre-enrolled-keys=0");
        Upid t = Upid.parse(c.post("/nodes/pve-4090/qemu", p).asText());
        assertThat(new PveTasks(c, Duration.ofMillis(50)).await(t, l -> { }, () -> false, Duration.ofSeconds(10)).ok()).isTrue();
        JsonNode cfg = c.get("/nodes/pve-4090/qemu/150/config", Map.of());
        assertThat(cfg.get("hostpci0").asText()).isEqualTo("mapping=gpu-4090-a,pcie=1");
        assertThat(cfg.get("bios").asText()).isEqualTo("ovmf");
    }

    @Test
    void rrdStorageAndGuestAgent() throws Exception {
        JsonNode rrd = c.get("/nodes/pve-4090/qemu/101/rrddata", Map.of("timeframe", "hour", "cf", "AVERAGE"));
        assertThat(rrd.size()).isEqualTo(70);
        assertThat(PveValues.number(rrd.get(0), "time")).isPresent();
        JsonNode storages = c.get("/nodes/pve-4090/storage", Map.of());
        assertThat(storages).hasSize(2);
        assertThat(PveValues.bool(storages.get(0), "active")).contains(true);
        assertThat(c.get("/nodes/pve-4090/storage/local/content", Map.of("content", "iso")).get(0).get("volid").asText())
                .endsWith(".iso");
        c.post("/nodes/pve-4090/qemu/101/agent/ping", Map.of());
        long pid = PveValues.number(c.post("/nodes/pve-4090/qemu/101/agent/exec",
                Map.of("command", "nvidia-smi")), "pid").orElseThrow();
        JsonNode status = c.get("/nodes/pve-4090/qemu/101/agent/exec-status", Map.of("pid", String.valueOf(pid)));
        assertThat(PveValues.bool(status, "exited")).contains(true);
        assertThat(status.get("out-data").asText()).contains("RTX 4090");
        assertThatThrownBy(() -> c.post("/nodes/pve-3090/qemu/9000/agent/ping", Map.of()))
                .hasMessageContaining("VM 9000 is not running");
    }
}
