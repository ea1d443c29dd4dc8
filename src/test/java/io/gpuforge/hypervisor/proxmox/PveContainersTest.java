package io.gpuforge.hypervisor.proxmox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpuforge.demo.PveSimulator;
import io.gpuforge.demo.SimCluster;
import io.gpuforge.domain.BackendException;
import io.gpuforge.domain.share.ContainerDevice;
import io.gpuforge.domain.share.ContainerInfo;
import io.gpuforge.domain.share.ContainerSpec;
import io.gpuforge.domain.share.RawLxc;
import io.gpuforge.domain.tasks.TaskListener;
import io.gpuforge.domain.tasks.TaskOutcome;
import io.gpuforge.domain.vm.VmAction;
import io.gpuforge.hypervisor.BackendTask;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Containers of the Demo lab through the Proxmox backend, every request checked against the contract: the one
 * configured the old way read with its raw lxc pairs, one created with a shared GPU's devN entries, started only when
 * every device exists on the host, devices changed only while stopped and against the digest.
 */
class PveContainersTest {

    private PveSimulator sim;
    private ProxmoxHypervisor pve;

    @BeforeEach
    void start() throws Exception {
        sim = new PveSimulator(SimCluster.demo());
        pve = new ProxmoxHypervisor(sim.tokenClient(PveContract.load()), sim.url());
    }

    @AfterEach
    void stop() {
        pve.close();
        sim.close();
    }

    private static TaskOutcome done(BackendTask t) throws Exception {
        return t.await(TaskListener.none(), () -> false, Duration.ofSeconds(20));
    }

    private static List<ContainerDevice> gpu(String node) {
        return List.of(ContainerDevice.of(node), ContainerDevice.of("/dev/nvidiactl"),
                ContainerDevice.of("/dev/nvidia-uvm"), ContainerDevice.of("/dev/nvidia-uvm-tools"));
    }

    @Test
    void theOldWaysContainerIsReadWithItsRawLines() throws Exception {
        List<ContainerInfo> cts = pve.containers("pve-3090");
        assertThat(cts).singleElement().satisfies(c -> {
            assertThat(c.vmid()).isEqualTo(201);
            assertThat(c.name()).isEqualTo("media-01");
            assertThat(c.devices()).isEmpty();
            assertThat(c.lxc()).contains(new RawLxc("lxc.cgroup2.devices.allow", "c 195:* rwm"),
                    new RawLxc("lxc.mount.entry", "/dev/nvidia3 dev/nvidia3 none bind,optional,create=file"));
            assertThat(c.digest()).isPresent();
        });
        assertThat(pve.containers("pve-4090")).isEmpty();
    }

    @Test
    void aContainerWithAGpuIsMadeStartsOnlyWithEveryNodeAndChangesOnlyWhenStopped() throws Exception {
        ContainerSpec spec = new ContainerSpec(300, "cuda-ct-1", "local:vztmpl/debian-12-standard_12.7-1_amd64.tar.zst",
                4, 8192, "local-zfs", 16, "vmbr0", gpu("/dev/nvidia3"), Optional.empty(), false);
        assertThat(done(pve.createContainer("pve-3090", spec)).ok()).isTrue();
        ContainerInfo made = pve.container("pve-3090", 300);
        assertThat(made.status()).isEqualTo("stopped");
        assertThat(made.devices().values()).extracting(ContainerDevice::value).containsExactly("/dev/nvidia3",
                "/dev/nvidiactl", "/dev/nvidia-uvm", "/dev/nvidia-uvm-tools");

        TaskOutcome refused = done(pve.containerAction("pve-3090", 300, VmAction.START));
        assertThat(refused.ok()).isFalse();
        assertThat(refused.status()).contains("Device /dev/nvidia-uvm does not exist");

        assertThatThrownBy(() -> pve.setContainerDevices("pve-3090", 300, Map.of(0, Optional.empty()), "stale"))
                .isInstanceOfSatisfying(BackendException.class,
                        e -> assertThat(e.kind()).isEqualTo(BackendException.Kind.CONFLICT));
        ContainerInfo trimmed = pve.setContainerDevices("pve-3090", 300, Map.of(2, Optional.empty(), 3,
                Optional.empty()), made.digest().orElseThrow());
        assertThat(trimmed.devices()).containsOnlyKeys(0, 1);
        assertThat(done(pve.containerAction("pve-3090", 300, VmAction.START)).ok()).isTrue();
        ContainerInfo running = pve.container("pve-3090", 300);
        assertThat(running.running()).isTrue();
        assertThatThrownBy(() -> pve.setContainerDevices("pve-3090", 300,
                Map.of(2, Optional.of(ContainerDevice.of("/dev/nvidia-uvm"))), running.digest().orElseThrow()))
                .hasMessageContaining("stop it first");
        assertThatThrownBy(() -> pve.deleteContainer("pve-3090", 300)).hasMessageContaining("is running");
        assertThat(done(pve.containerAction("pve-3090", 300, VmAction.STOP)).ok()).isTrue();
        assertThat(done(pve.deleteContainer("pve-3090", 300)).ok()).isTrue();
        assertThat(pve.containers("pve-3090")).extracting(ContainerInfo::vmid).containsExactly(201);
    }

    @Test
    void aTemplateThatIsNotThereOrAnIdInUseIsRefused() throws Exception {
        ContainerSpec missing = new ContainerSpec(301, "x", "local:vztmpl/alpine-3.20-default_20240908_amd64.tar.xz",
                1, 512, "local-zfs", 4, "vmbr0", List.of(), Optional.empty(), false);
        assertThatThrownBy(() -> pve.createContainer("pve-3090", missing)).hasMessageContaining("does not exist");
        ContainerSpec taken = new ContainerSpec(101, "x", "local:vztmpl/debian-12-standard_12.7-1_amd64.tar.zst",
                1, 512, "local-zfs", 4, "vmbr0", List.of(), Optional.empty(), false);
        assertThatThrownBy(() -> pve.createContainer("pve-3090", taken)).hasMessageContaining("already exists");
        assertThatThrownBy(() -> new ContainerSpec(302, "bad name!", "local:vztmpl/x.tar.zst", 1, 512, "local-zfs", 4,
                "vmbr0", List.of(), Optional.empty(), false)).hasMessageContaining("host name");
    }
}
