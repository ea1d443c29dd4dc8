package io.gpuforge.hypervisor.proxmox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpuforge.demo.PveSimulator;
import io.gpuforge.demo.SimCluster;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The typed API over the simulator. */
class PveApiTest {

    private PveSimulator sim;
    private PveApi api;

    @BeforeEach
    void start() throws Exception {
        sim = new PveSimulator(SimCluster.demo());
        api = new PveApi(sim.tokenClient(PveContract.load()));
    }

    @AfterEach
    void stop() {
        sim.close();
    }

    @Test
    void configReadChangeAndConflict() throws Exception {
        PveApi.VmConfig cfg = api.config("pve-4090", 101);
        assertThat(cfg.values()).containsEntry("name", "train-01").containsEntry("balloon", "0");
        assertThat(cfg.digest()).hasSize(40);
        api.updateConfig("pve-4090", 101, Map.of("cores", "24"), cfg);
        assertThat(api.config("pve-4090", 101).values()).containsEntry("cores", "24");
        assertThatThrownBy(() -> api.updateConfig("pve-4090", 101, Map.of("cores", "8"), cfg))
                .satisfies(e -> assertThat(((PveApiException) e).kind()).isEqualTo(PveApiException.Kind.CONFLICT));
    }

    @Test
    void nodeStorageRrdTasksAndAgent() throws Exception {
        PveApi.NodeStatus n = api.nodeStatus("pve-4090");
        assertThat(n.pveVersion()).startsWith("pve-manager/8.4");
        assertThat(n.memTotal()).isGreaterThan(n.memUsed());
        Upid reboot = api.rebootNode("pve-4090");
        assertThat(api.taskStatus(reboot).running()).isTrue();
        assertThat(api.storages("pve-4090")).extracting(PveApi.Storage::name).containsExactly("local", "local-zfs");
        assertThat(api.storages("pve-4090").get(1).content()).contains("images");
        assertThat(api.rrd("pve-4090", 101, "hour")).hasSize(70).allMatch(p -> p.cpu().isPresent());
        assertThat(api.agentPing("pve-4090", 101)).isTrue();
        assertThat(api.agentPing("pve-3090", 9000)).isFalse();
        long pid = api.agentExec("pve-4090", 101, "nvidia-smi");
        PveApi.ExecStatus s = api.agentExecStatus("pve-4090", 101, pid);
        assertThat(s.exited()).isTrue();
        assertThat(s.exitCode()).contains(0);
        assertThat(s.out()).contains("RTX 4090");
    }
}
