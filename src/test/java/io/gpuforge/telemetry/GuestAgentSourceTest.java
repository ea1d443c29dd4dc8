package io.gpuforge.telemetry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpuforge.demo.PveSimulator;
import io.gpuforge.demo.SimCluster;
import io.gpuforge.domain.BackendException;
import io.gpuforge.domain.telemetry.GpuMetric;
import io.gpuforge.domain.telemetry.GpuSample;
import io.gpuforge.domain.telemetry.SourceKind;
import io.gpuforge.domain.vm.VmRef;
import io.gpuforge.hypervisor.Hypervisor;
import io.gpuforge.hypervisor.proxmox.ProxmoxHypervisor;
import io.gpuforge.hypervisor.proxmox.PveContract;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The guest-agent source through the Hypervisor seam, against the Proxmox simulator (agent/exec + exec-status). */
class GuestAgentSourceTest {

    private PveSimulator sim;
    private Hypervisor pve;

    @BeforeEach
    void start() throws Exception {
        sim = new PveSimulator(SimCluster.demo());
        pve = new ProxmoxHypervisor(sim.tokenClient(PveContract.load()), sim.url());
    }

    @AfterEach
    void stop() throws Exception {
        pve.close();
        sim.close();
    }

    private GuestAgentSource source(String vmid) {
        VmRef vm = new VmRef("pve-4090", vmid);
        return new GuestAgentSource((argv, timeout) -> pve.guestExec(vm, argv, timeout), "VM " + vmid + " on pve-4090",
                "vm:" + vmid + "@pve-4090", Optional.of("pve-4090"));
    }

    @Test
    void theGpuInsideARunningVmIsReadAndLabelledAsSuch() throws Exception {
        List<GpuSample> s = source("101").poll(1000, 2000);
        assertThat(s).hasSize(1);
        GpuSample g = s.get(0);
        assertThat(g.name()).isEqualTo("NVIDIA GeForce RTX 4090");
        assertThat(g.get(GpuMetric.TEMPERATURE_C)).hasValue(61);
        assertThat(g.get(GpuMetric.POWER_W)).hasValue(287.45);
        assertThat(g.get(GpuMetric.POWER_LIMIT_W)).as("the guest answered fewer columns").isEmpty();
        assertThat(g.source()).isEqualTo(SourceKind.GUEST_AGENT);
        assertThat(g.vm()).hasValue("VM 101 on pve-4090");
        assertThat(g.gpu().host()).isEqualTo("vm:101@pve-4090");
        assertThat(source("101").info().description()).isEqualTo("guest agent inside VM 101 on pve-4090");
    }

    @Test
    void anAgentThatDoesNotAnswerIsExplained() {
        sim.cluster().agentAnswers(101, false);
        assertThatThrownBy(() -> source("101").poll(1000, 2000)).isInstanceOf(SourceException.class)
                .hasMessageContaining("guest agent in VM 101 on pve-4090 is not running")
                .hasMessageContaining("qemu-guest-agent");
    }

    @Test
    void theExplanationsOfLibvirtAndProxmoxAgentErrors() {
        GuestAgentSource s = source("104");
        assertThat(s.explain(new BackendException(BackendException.Kind.FAILED,
                "internal error: Command guest-exec has been disabled"))).contains("does not allow running commands");
        assertThat(s.explain(new BackendException(BackendException.Kind.FAILED,
                "No QEMU guest agent configured"))).contains("not enabled");
        assertThat(s.explain(new BackendException(BackendException.Kind.FAILED,
                "Agent error: Failed to execute child process 'nvidia-smi' (No such file or directory)")))
                .contains("install the NVIDIA driver in the guest");
    }
}
