package io.gpuforge.app.passthrough;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.domain.host.HostFacts;
import io.gpuforge.domain.host.JournalState;
import io.gpuforge.domain.passthrough.PassthroughPlan;
import io.gpuforge.domain.pci.PciAddress;
import io.gpuforge.domain.passthrough.PlanOptions;
import io.gpuforge.host.apply.HostConfigurator;
import io.gpuforge.host.probe.HostProbe;
import io.gpuforge.host.LocalShell;
import io.gpuforge.passthrough.Planner;
import io.gpuforge.testing.HostTrees;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Where a host stands with a GPU, as the passthrough wizard and `gpuforge passthrough` read it from its journal. */
class PassthroughStatusTest {

    private static final PciAddress GPU = PciAddress.parse("0000:01:00.0");

    @TempDir
    Path dir;

    @Test
    void aHostWhoseJournalSaysACommitIsUnderWayIsNotPlannedOver() throws Exception {
        Path root = HostTrees.intelGrub(dir.resolve("h"));
        HostFacts before = new HostProbe().probeLocal(Optional.of(root));
        PassthroughPlan plan = Planner.plan(before, GPU, PlanOptions.defaults());
        new HostConfigurator(new LocalShell(), Optional.of(root.toString()), false, Clock.systemUTC()).apply(plan);
        Path journal = root.resolve("var/lib/gpuforge/journal.json");
        // the journal as it stands while a detached commit runs on the host, its end not yet recorded
        Files.writeString(journal, Files.readString(journal).replace("\"" + JournalState.APPLIED + "\"",
                "\"" + JournalState.COMMITTING + "\""));

        PassthroughStatus s = PassthroughStatus.of(new HostProbe().probeLocal(Optional.of(root)), GPU,
                PlanOptions.defaults());

        assertThat(s.stage()).isEqualTo(PassthroughStatus.Stage.INTERRUPTED);
        assertThat(s.plan()).as("no plan offered over a commit that may still be changing the files").isEmpty();
        assertThat(s.journalState()).contains(JournalState.COMMITTING);
    }
}
