package io.gpuforge.hypervisor.proxmox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.gpuforge.demo.PveSimulator;
import io.gpuforge.demo.SimCluster;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The simulator refuses what PVE refuses and keeps what PVE keeps, for the calls the backend seam and the next
 * features use: delete, template, pending changes, mappings, raw devices, download-url, permissions, tasks, RRD.
 */
class PveSimulatorBehaviourTest {

    private static final Duration WAIT = Duration.ofSeconds(20);
    private PveSimulator sim;
    private PveClient c;
    private PveTasks tasks;

    @BeforeEach
    void start() throws Exception {
        sim = new PveSimulator(SimCluster.contractLab());
        c = sim.tokenClient(PveContract.load());
        tasks = new PveTasks(c, Duration.ofMillis(50));
    }

    @AfterEach
    void stop() {
        sim.close();
    }

    private PveTasks.Outcome finish(Upid u) throws Exception {
        return tasks.await(u, l -> { }, () -> false, WAIT);
    }

    private PveClient root() throws PveApiException {
        return new PveClient(sim.url(), new PveCredentials.Password("root@pam", sim.password().toCharArray()),
                Optional.of(sim.certificateFingerprint()), PveContract.load());
    }

    private String digest(int vmid) throws PveApiException {
        return c.get("/nodes/pve-4090/qemu/" + vmid + "/config", Map.of()).get("digest").asText();
    }

    @Test
    void aRunningVmIsNotDeletedAStoppedOneIsWithItsDisks() throws Exception {
        PveVms vms = new PveVms(c);
        assertThatThrownBy(() -> vms.delete("pve-4090", 101, true)).hasMessageContaining("VM 101 is running - destroy failed");
        assertThat(c.get("/nodes/pve-4090/storage/local-zfs/content", Map.of("vmid", "102"))).hasSize(1);
        assertThat(finish(vms.delete("pve-4090", 102, true)).ok()).isTrue();
        assertThatThrownBy(() -> c.get("/nodes/pve-4090/qemu/102/config", Map.of())).hasMessageContaining("does not exist");
        assertThat(c.get("/nodes/pve-4090/storage/local-zfs/content", Map.of("vmid", "102"))).isEmpty();
    }

    @Test
    void aTemplateDoesNotStartAndARunningVmDoesNotBecomeOne() throws Exception {
        PveVms vms = new PveVms(c);
        assertThatThrownBy(() -> c.post("/nodes/pve-3090/qemu/9000/status/start", Map.of()))
                .hasMessageContaining("you can't start a vm if it's a template");
        assertThatThrownBy(() -> vms.template("pve-4090", 101)).hasMessageContaining("if VM is running");
        assertThatThrownBy(() -> vms.clone("pve-4090", 102, "linked", false, Optional.empty(), Optional.empty()))
                .hasMessageContaining("Linked clone");
    }

    @Test
    void mappingsAndRawDevicesAreCheckedLikePve() throws Exception {
        assertThatThrownBy(() -> c.post("/cluster/mapping/pci", Map.of("id", "gpu-4090-a", "map",
                "node=pve-4090,path=0000:02:00,id=10de:2684"))).hasMessageContaining("mapping 'gpu-4090-a' already exists");
        assertThatThrownBy(() -> c.post("/cluster/mapping/pci", Map.of("id", "no-ids", "map", "node=pve-4090,path=0000:02:00")))
                .satisfies(e -> assertThat(((PveApiException) e).errors()).containsKey("map"));
        assertThatThrownBy(() -> c.put("/nodes/pve-4090/qemu/102/config", Map.of("digest", digest(102), "hostpci0",
                "mapping=gpu-nowhere,pcie=1"))).hasMessageContaining("PCI device mapping not found for 'gpu-nowhere'");
        assertThatThrownBy(() -> c.put("/nodes/pve-4090/qemu/102/config", Map.of("digest", digest(102), "hostpci0",
                "0000:02:00,pcie=1"))).as("an API token, even root's, is not root")
                .hasMessageContaining("only root can set 'hostpci0' config for non-mapped devices");
        assertThat(c.get("/nodes/pve-4090/qemu/102/config", Map.of()).has("hostpci0")).isFalse();
        root().put("/nodes/pve-4090/qemu/102/config", Map.of("digest", digest(102), "hostpci0", "0000:02:00,pcie=1"));
        assertThat(c.get("/nodes/pve-4090/qemu/102/config", Map.of()).get("hostpci0").asText()).isEqualTo("0000:02:00,pcie=1");
    }

    @Test
    void aStaleDigestIsRefusedWithPvesWords() throws Exception {
        String d = digest(102);
        c.put("/nodes/pve-4090/qemu/102/config", Map.of("digest", d, "cores", "6"));
        assertThatThrownBy(() -> c.put("/nodes/pve-4090/qemu/102/config", Map.of("digest", d, "cores", "8")))
                .hasMessageContaining("detected modified configuration - file changed by other user? Try again.");
    }

    @Test
    void aRunningVmKeepsColdChangesPendingUntilItsNextStart() throws Exception {
        c.put("/nodes/pve-4090/qemu/101/config", Map.of("digest", digest(101), "hostpci1", "mapping=gpu-4090-b,pcie=1",
                "name", "train-02"));
        assertThat(c.get("/nodes/pve-4090/qemu/101/config", Map.of()).get("hostpci1").asText())
                .as("GET config shows pending changes applied").isEqualTo("mapping=gpu-4090-b,pcie=1");
        JsonNode current = c.get("/nodes/pve-4090/qemu/101/config", Map.of("current", "1"));
        assertThat(current.has("hostpci1")).isFalse();
        assertThat(current.get("name").asText()).as("a name applies at once").isEqualTo("train-02");
        PveVms vms = new PveVms(c);
        assertThat(finish(vms.action("pve-4090", 101, PveVms.Action.STOP)).ok()).isTrue();
        assertThat(finish(vms.action("pve-4090", 101, PveVms.Action.START)).ok()).isTrue();
        assertThat(c.get("/nodes/pve-4090/qemu/101/config", Map.of("current", "1")).get("hostpci1").asText())
                .isEqualTo("mapping=gpu-4090-b,pcie=1");
    }

    @Test
    void aVmIsCreatedWithCloudInitATpmAndADiskImportedFromAnImage() throws Exception {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("vmid", "150");
        p.put("name", "ci-01");
        p.put("scsi0", "local-zfs:0,import-from=local-zfs:vm-102-disk-0,iothread=1");
        p.put("ide2", "local-zfs:cloudinit");
        p.put("tpmstate0", "local-zfs:1,version=v2.0");
        p.put("cicustom", "user=local:snippets/gpu-user.yaml");
        p.put("ipconfig0", "ip=dhcp");
        p.put("ciuser", "ada");
        p.put("sshkeys", PveValues.sshKeys("ssh-ed25519 AAAAC3Nza ada@lab"));
        p.put("agent", "enabled=1");
        assertThat(finish(Upid.parse(c.post("/nodes/pve-4090/qemu", p).asText())).ok()).isTrue();
        JsonNode cfg = c.get("/nodes/pve-4090/qemu/150/config", Map.of());
        assertThat(cfg.get("scsi0").asText()).isEqualTo("local-zfs:vm-150-disk-0,iothread=1,size=32G");
        assertThat(cfg.get("ide2").asText()).isEqualTo("local-zfs:vm-150-cloudinit,media=cdrom");
        assertThat(cfg.get("tpmstate0").asText()).isEqualTo("local-zfs:vm-150-disk-1,version=v2.0,size=4M");
        assertThat(cfg.get("cicustom").asText()).isEqualTo("user=local:snippets/gpu-user.yaml");
        p.put("vmid", "151");
        p.put("scsi0", "local:0,import-from=local:import/none.qcow2");
        assertThatThrownBy(() -> c.post("/nodes/pve-4090/qemu", p)).hasMessageContaining("does not support vm images");
        p.put("scsi0", "local-zfs:0,import-from=/root/noble.qcow2");
        assertThatThrownBy(() -> c.post("/nodes/pve-4090/qemu", p)).hasMessageContaining("only root");
    }

    @Test
    void downloadsIntoAStorageAreCheckedAndListed() throws Exception {
        PveApi api = new PveApi(c);
        String url = "https://releases.ubuntu.com/24.04/ubuntu-24.04.2-live-server-amd64.iso";
        assertThatThrownBy(() -> api.downloadUrl("pve-4090", "local-zfs", new PveApi.Download("iso", url, "u.iso",
                Optional.empty(), Optional.empty()))).hasMessageContaining("not configured for content-type 'iso'");
        assertThatThrownBy(() -> api.downloadUrl("pve-4090", "local", new PveApi.Download("iso", url, "u.qcow2",
                Optional.empty(), Optional.empty()))).satisfies(e -> assertThat(((PveApiException) e).errors())
                .containsKey("filename"));
        assertThatThrownBy(() -> c.post("/nodes/pve-4090/storage/local/download-url", Map.of("content", "iso", "url", url,
                "filename", "u.iso", "checksum", "abc"))).satisfies(e -> assertThat(((PveApiException) e).errors())
                .containsKey("checksum-algorithm"));
        assertThatThrownBy(() -> new PveApi.Download("iso", url, "u.iso", Optional.of("abc"), Optional.empty()))
                .hasMessageContaining("go together");
        Upid u = api.downloadUrl("pve-4090", "local", new PveApi.Download("iso", url, "u.iso", Optional.of("ab12"),
                Optional.of("sha256")));
        PveTasks.Outcome done = finish(u);
        assertThat(done.ok()).isTrue();
        assertThat(done.log()).anyMatch(l -> l.contains("checksum verified"));
        assertThat(c.get("/nodes/pve-4090/storage/local/content", Map.of("content", "iso")).toString())
                .contains("local:iso/u.iso");
        assertThatThrownBy(() -> api.downloadUrl("pve-4090", "local", new PveApi.Download("iso", url, "u.iso",
                Optional.empty(), Optional.empty()))).hasMessageContaining("refusing to override existing file");
    }

    @Test
    void permissionsTasksAndTheNodesRrd() throws Exception {
        PveApi api = new PveApi(c);
        PveApi.Permissions all = api.permissions(Optional.empty(), Optional.empty());
        assertThat(all.has("/vms/101", "VM.PowerMgmt")).as("propagated from /").isTrue();
        assertThat(all.has("/mapping/pci/gpu-4090-a", "Mapping.Use")).isTrue();
        assertThat(all.has("/vms/101", "VM.Teleport")).isFalse();
        PveApi.Permissions one = api.permissions(Optional.of("/vms/101"), Optional.of(PveSimulator.TOKEN_ID));
        assertThat(one.byPath()).containsOnlyKeys("/vms/101");

        Upid start = new PveVms(c).action("pve-4090", 102, PveVms.Action.START);
        assertThat(api.clusterTasks()).filteredOn(t -> t.upid().equals(start.raw())).singleElement().satisfies(t -> {
            assertThat(t.running()).isTrue();
            assertThat(t.type()).isEqualTo("qmstart");
            assertThat(t.id()).isEqualTo("102");
        });
        finish(start);
        assertThat(api.clusterTasks()).filteredOn(t -> t.upid().equals(start.raw())).singleElement().satisfies(t -> {
            assertThat(t.status()).contains("OK");
            assertThat(t.ended()).isPresent();
        });

        List<PveApi.NodeRrdPoint> hour = api.nodeRrd("pve-4090", "hour", false);
        assertThat(hour).hasSize(70).allSatisfy(pt -> {
            assertThat(pt.cpu()).isPresent();
            assertThat(pt.memTotal()).hasValue(137438953472L);
        });
        List<PveApi.NodeRrdPoint> day = api.nodeRrd("pve-4090", "day", true);
        assertThat(day.get(1).time().getEpochSecond() - day.get(0).time().getEpochSecond()).isEqualTo(1800);
        assertThatThrownBy(() -> api.nodeRrd("pve-4090", "decade", false)).as("PVE 9 only: not sent to an 8.4 node")
                .satisfies(e -> assertThat(((PveApiException) e).errors()).containsKey("timeframe"));
    }
}
