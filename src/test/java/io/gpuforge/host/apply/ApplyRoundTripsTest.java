package io.gpuforge.host.apply;

import io.gpuforge.host.FaultyShell;
import io.gpuforge.host.probe.HostProbe;
import io.gpuforge.host.HostShell;
import io.gpuforge.host.LocalShell;
import io.gpuforge.host.RemoteFiles;
import io.gpuforge.host.TreeShell;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.domain.host.HostFacts;
import io.gpuforge.domain.passthrough.PassthroughPlan;
import io.gpuforge.domain.pci.PciAddress;
import io.gpuforge.domain.passthrough.PlanOptions;
import io.gpuforge.passthrough.Planner;
import io.gpuforge.testing.HostTrees;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every script on a host is one round trip: over SSH to a slow or far host (the kernel lab's emulated guest takes
 * 0.3–1 s for each) an apply's cost is its number of round trips, so what it reads, backs up and stages goes in one
 * trip per kind, not one per file.
 */
class ApplyRoundTripsTest {

    private static final PciAddress GPU = PciAddress.parse("0000:01:00.0");

    @TempDir
    Path dir;

    @Test
    void anApplyAndItsRollbackTakeAFewRoundTripsWhateverTheNumberOfFiles() throws Exception {
        Path root = HostTrees.withBootTools(HostTrees.intelGrub(dir.resolve("h")));
        HostFacts f = new HostProbe().probeLocal(Optional.of(root));
        PassthroughPlan p = Planner.plan(f, GPU, PlanOptions.defaults());
        assertThat(p.edits()).as("the plan edits several files").hasSizeGreaterThanOrEqualTo(3);
        try (HostShell real = new TreeShell(root)) {
            FaultyShell counter = new FaultyShell(real, Integer.MAX_VALUE, FaultyShell.Mode.FAIL);
            HostConfigurator c = new HostConfigurator(counter, Optional.empty(), false, Clock.systemUTC());
            c.apply(p);
            int apply = counter.calls();
            c.rollback(Optional.empty());
            int rollback = counter.calls() - apply;
            // apply: the journal; the files; a free backup id; the journal written; the backups; the staged copies; the
            // journal; the commit script, its start and its follow; the journal at the end. One per file were 3 × files
            // more.
            assertThat(apply).as("round trips of an apply of %d files", p.edits().size()).isLessThanOrEqualTo(12);
            assertThat(rollback).as("round trips of its rollback").isLessThanOrEqualTo(8 + p.edits().size()
                    + 2 * p.commands().size());
        }
    }

    /** Each apply leaves its commit's script, status and log; only the newest ended ones stay. */
    @Test
    void theFilesOfOldCommitsGoButTheNewestOnes() throws Exception {
        Path root = HostTrees.withBootTools(HostTrees.intelGrub(dir.resolve("p")));
        HostFacts f = new HostProbe().probeLocal(Optional.of(root));
        PassthroughPlan p = Planner.plan(f, GPU, PlanOptions.defaults());
        Path state = root.resolve("var/lib/gpuforge");
        List<String> ids = new ArrayList<>();
        try (HostShell shell = new TreeShell(root)) {
            HostConfigurator c = new HostConfigurator(shell, Optional.empty(), false, Clock.systemUTC());
            for (int i = 0; i < CommitScript.KEPT + 3; i++) {
                ids.add(c.apply(p).journalId());
                c.rollback(Optional.empty());
            }
        }
        List<String> left;
        try (Stream<Path> s = Files.list(state)) {
            left = s.map(x -> x.getFileName().toString()).filter(n -> n.startsWith("commit-")).sorted().toList();
        }
        List<String> kept = ids.subList(ids.size() - CommitScript.KEPT - 1, ids.size());
        assertThat(left).as("the files of the last apply and of the %d before it", CommitScript.KEPT)
                .containsExactlyInAnyOrderElementsOf(kept.stream()
                        .flatMap(id -> Stream.of(".sh", ".status", ".log").map(x -> "commit-" + id + x))
                        .toList());
        assertThat(Files.readString(state.resolve("commit-" + ids.get(ids.size() - 1) + ".status"))).contains("APPLIED");
    }

    @Test
    void severalFilesAreReadInOneRoundTripThroughTheirLinks() throws Exception {
        Path root = Files.createDirectories(dir.resolve("r"));
        Files.createDirectories(root.resolve("etc/default"));
        byte[] binary = new byte[3000];
        for (int i = 0; i < binary.length; i++) {
            binary[i] = (byte) (i * 7);
        }
        Files.write(root.resolve("etc/blob"), binary);
        Files.writeString(root.resolve("etc/default/grub"), "GRUB_CMDLINE_LINUX_DEFAULT=\"quiet\"\n");
        Files.writeString(root.resolve("etc/empty"), "");
        Files.createSymbolicLink(root.resolve("etc/link"), Path.of("/etc/default/grub"));
        try (HostShell real = new LocalShell()) {
            FaultyShell counter = new FaultyShell(real, Integer.MAX_VALUE, FaultyShell.Mode.FAIL);
            RemoteFiles files = new RemoteFiles(counter, root.toString(), false, Duration.ofSeconds(30));
            Map<String, Optional<byte[]>> got = files.readAll(List.of("/etc/blob", "/etc/absent", "/etc/default/grub",
                    "/etc/empty", "/etc/link"));
            assertThat(counter.calls()).isEqualTo(1);
            assertThat(got.keySet()).containsExactly("/etc/blob", "/etc/absent", "/etc/default/grub", "/etc/empty",
                    "/etc/link");
            assertThat(got.get("/etc/blob")).hasValue(binary);
            assertThat(got.get("/etc/absent")).isEmpty();
            assertThat(got.get("/etc/empty")).hasValue(new byte[0]);
            assertThat(new String(got.get("/etc/link").orElseThrow(), StandardCharsets.UTF_8))
                    .as("the link is read as the file it stands for, under the root").contains("quiet");
        }
    }
}
