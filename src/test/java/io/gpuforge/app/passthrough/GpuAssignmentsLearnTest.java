package io.gpuforge.app.passthrough;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.app.AppContext;
import io.gpuforge.app.session.ConnectionSession;
import io.gpuforge.app.settings.LanguageChoice;
import io.gpuforge.app.settings.ThemeChoice;
import io.gpuforge.demo.PveSimulator;
import io.gpuforge.demo.SimCluster;
import io.gpuforge.domain.vm.ChangeEvent;
import io.gpuforge.domain.vm.CloneRequest;
import io.gpuforge.domain.ClusterInventory;
import io.gpuforge.domain.connections.ConnectionInfo;
import io.gpuforge.domain.GpuInfo;
import io.gpuforge.domain.vm.VmRef;
import io.gpuforge.testing.HostTrees;
import io.gpuforge.testing.TestContexts;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Who has which GPU, learned from the VMs' configurations (Proxmox lists a VM's devices only there) on a 4-node /
 * 200-VM cluster of the simulator: a refresh after a VM was cloned reads the configuration of the new VM, not again
 * those of the 50 VMs of its node that were read before and that the change feed did not report changed.
 */
class GpuAssignmentsLearnTest {

    @TempDir
    Path home;

    @Test
    void aRefreshAfterAVmWasAddedReadsOnlyTheNewVmsConfiguration() throws Exception {
        try (PveSimulator sim = new PveSimulator(SimCluster.generated(4, 200, 8));
             AppContext app = TestContexts.create(home.resolve("home"), HostTrees.proxmoxSystemdBoot(home.resolve("sys")),
                     ThemeChoice.LIGHT, LanguageChoice.ENGLISH)) {
            app.secrets().createVault("a long passphrase".toCharArray());
            String token = sim.token();
            ConnectionInfo c = app.connections().addProxmox("big", sim.url(), token.substring(0, token.indexOf('=')),
                    token.substring(token.indexOf('=') + 1).toCharArray(), Optional.of(sim.certificateFingerprint()));
            ConnectionSession s = app.sessions().of(c);
            GpuAssignments assignments = new GpuAssignments();
            List<ChangeEvent> events = new CopyOnWriteArrayList<>();
            try (AutoCloseable feed = s.watch(e -> {
                events.add(e);
                assignments.changed(e);
            })) {
                assertThat(assignments.learnAssignments(s, s.inventory())).as("the first open reads every VM").isEqualTo(200);
                assertThat(s.inventory().gpus()).allMatch(GpuInfo::assignmentKnown);

                // VM 100 is on pve01: its clone makes pve01's GPUs unknown again (a VM nobody read could have one)
                s.cloneVm(new CloneRequest(new VmRef("pve01", "100"), "clone-of-100", Optional.empty(), true,
                        Optional.empty()), line -> { }, () -> false);
                ClusterInventory refreshed = s.inventory();
                assertThat(refreshed.gpus()).anyMatch(g -> !g.assignmentKnown());
                waitFor(() -> events.stream().anyMatch(e -> e.vm().isPresent()));

                int before = sim.requestCount();
                int read = assignments.learnAssignments(s, refreshed);
                assertThat(sim.requestCount() - before).as("configuration requests of the second refresh").isEqualTo(1);
                assertThat(read).isEqualTo(1);
                assertThat(s.inventory().gpus()).as("every GPU's holder is known again").allMatch(GpuInfo::assignmentKnown);
            }
        }
    }

    /** Waits for what the step expects; fails when it does not come (it used to go on silently). */
    private static void waitFor(BooleanSupplier c) throws InterruptedException {
        io.gpuforge.testing.Eventually.until("the assignments' awaited state", Duration.ofSeconds(20), c);
    }
}
