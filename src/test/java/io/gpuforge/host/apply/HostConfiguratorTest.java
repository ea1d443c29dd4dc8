package io.gpuforge.host.apply;

import io.gpuforge.host.FaultyShell;
import io.gpuforge.host.ssh.HostKeyPolicy;
import io.gpuforge.host.probe.HostProbe;
import io.gpuforge.host.HostShell;
import io.gpuforge.host.LocalShell;
import io.gpuforge.host.ssh.SshShell;
import io.gpuforge.host.ssh.SshTarget;
import io.gpuforge.host.TreeShell;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpuforge.domain.passthrough.ApplyOutcome;
import io.gpuforge.domain.host.JournalState;
import io.gpuforge.domain.passthrough.PlanOptions;
import io.gpuforge.domain.host.HostFacts;
import io.gpuforge.domain.pci.PciAddress;
import io.gpuforge.domain.passthrough.PassthroughPlan;
import io.gpuforge.passthrough.Planner;
import io.gpuforge.testing.HostTrees;
import io.gpuforge.testing.SysrootSshServer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Apply, idempotence, byte-identical rollback and a fault at every step, on sysroot hosts and over SSH. */
class HostConfiguratorTest {

    @TempDir
    Path dir;

    private static final PciAddress GPU = PciAddress.parse("0000:01:00.0");

    /** Every regular file of the tree (GPUForge's own state left out) with its bytes and mode. */
    static Map<String, String> state(Path root) throws IOException {
        Map<String, String> out = new TreeMap<>();
        try (Stream<Path> s = Files.walk(root)) {
            for (Path p : (Iterable<Path>) s::iterator) {
                String rel = root.relativize(p).toString();
                if (rel.startsWith("var/lib/gpuforge/") || rel.startsWith(HostTrees.SWITCHES + "/")
                        || !Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) {
                    continue;
                }
                out.put(rel, PosixFilePermissions.toString(Files.getPosixFilePermissions(p)) + "\n"
                        + new String(Files.readAllBytes(p), StandardCharsets.ISO_8859_1));
            }
        }
        return out;
    }

    private static PassthroughPlan plan(Path root) throws Exception {
        HostFacts f = new HostProbe().probeLocal(Optional.of(root));
        return Planner.plan(f, GPU, PlanOptions.defaults());
    }

    private static HostConfigurator configurator(HostShell shell, Path root) {
        return new HostConfigurator(shell, Optional.of(root.toString()), false, Clock.systemUTC());
    }

    private Path grubHost(String name) throws IOException {
        Path root = HostTrees.intelGrub(dir.resolve(name));
        Files.setPosixFilePermissions(root.resolve("etc/default/grub"), PosixFilePermissions.fromString("rw-------"));
        return root;
    }

    @Test
    void applyIsIdempotentAndRollbackIsByteIdentical() throws Exception {
        Path root = grubHost("h");
        Map<String, String> original = state(root);
        PassthroughPlan p = plan(root);
        HostConfigurator c = configurator(new LocalShell(), root);
        ApplyOutcome r = c.apply(p);
        assertThat(r.status()).isEqualTo(ApplyOutcome.Status.APPLIED);
        assertThat(r.filesChanged()).containsExactly("/etc/default/grub", "/etc/modules", Planner.MODPROBE_FILE);
        assertThat(r.commandsRun()).isEmpty();
        assertThat(r.commandsNotRun()).containsExactly("update-grub", "update-initramfs -u -k all");
        for (PassthroughPlan.FileEdit e : p.edits()) {
            assertThat(root.resolve(e.path().substring(1))).hasContent(e.after());
        }
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(root.resolve("etc/default/grub"))))
                .as("mode kept").isEqualTo("rw-------");
        assertThat(root.resolve(r.backupDir().orElseThrow().substring(1) + "/files/etc/default/grub"))
                .hasContent(p.edits().get(0).before().orElseThrow());
        assertThat(root.resolve(r.backupDir().orElseThrow().substring(1) + "/manifest.json")).exists();
        Map<String, String> applied = state(root);

        assertThat(c.apply(p).status()).as("same plan again").isEqualTo(ApplyOutcome.Status.NOTHING_TO_DO);
        assertThat(plan(root).edits()).as("a new plan on the applied host").isEmpty();
        assertThat(state(root)).isEqualTo(applied);

        ApplyOutcome back = c.rollback(Optional.empty());
        assertThat(back.status()).isEqualTo(ApplyOutcome.Status.ROLLED_BACK);
        assertThat(state(root)).isEqualTo(original);
        assertThat(c.rollback(Optional.empty()).status()).isEqualTo(ApplyOutcome.Status.NOTHING_TO_DO);
        assertThat(c.journal().orElseThrow().state).isEqualTo(JournalState.ROLLED_BACK);
    }

    @Test
    void aPlanMadeBeforeSomeoneEditedTheFileIsRefused() throws Exception {
        Path root = grubHost("h");
        PassthroughPlan p = plan(root);
        Files.writeString(root.resolve("etc/default/grub"), "GRUB_CMDLINE_LINUX_DEFAULT=\"quiet\"\n");
        Map<String, String> before = state(root);
        assertThatThrownBy(() -> configurator(new LocalShell(), root).apply(p)).isInstanceOf(ApplyException.class)
                .hasMessageContaining("/etc/default/grub").hasMessageContaining("changed since the plan");
        assertThat(state(root)).isEqualTo(before);
    }

    /**
     * Where faults are injected: a sysroot (files only, commands listed) and a tree host whose boot tools really
     * rebuild grub.cfg and the initramfs (so {@link #state} shows whether the boot files match the configuration).
     */
    enum HostKind { SYSROOT, TREE_HOST }

    private Path faultHost(HostKind kind, String name) throws IOException {
        Path root = grubHost(name);
        return kind == HostKind.TREE_HOST ? HostTrees.withBootTools(root) : root;
    }

    private static HostShell shellFor(HostKind kind, Path root) throws IOException {
        return kind == HostKind.TREE_HOST ? new TreeShell(root) : new LocalShell();
    }

    private static HostConfigurator configurator(HostKind kind, HostShell shell, Path root) {
        return new HostConfigurator(shell, kind == HostKind.TREE_HOST ? Optional.empty() : Optional.of(root.toString()),
                false, Clock.systemUTC());
    }

    private static Optional<JournalState> journalState(HostKind kind, Path root) throws Exception {
        try (HostShell shell = shellFor(kind, root)) {
            return configurator(kind, shell, root).journal().map(j -> j.state);
        }
    }

    /**
     * The next contact with a working connection: it records how a detached commit ended (waiting while it still
     * runs on the host, as a user asking 'gpuforge rollback --status' again would) and removes staged copies of an
     * apply cut before its commit.
     */
    private static Optional<JournalState> nextContact(HostKind kind, Path root) throws Exception {
        for (int i = 0; i < 600; i++) {
            try (HostShell shell = shellFor(kind, root)) {
                ApplyState s = configurator(kind, shell, root).state();
                if (s.kind() != ApplyState.Kind.RUNNING) {
                    return s.journal().map(j -> j.state);
                }
            }
            Thread.sleep(100);
        }
        throw new AssertionError("the commit on " + root + " did not end within a minute");
    }

    @ParameterizedTest
    @EnumSource(HostKind.class)
    void aFaultAtEveryStepLeavesTheHostUntouchedOrCompletelyApplied(HostKind kind) throws Exception {
        Path clean = faultHost(kind, "count");
        PassthroughPlan p = plan(clean); // every tree below is built alike: the same plan
        int steps;
        try (HostShell real = shellFor(kind, clean)) {
            FaultyShell counter = new FaultyShell(real, Integer.MAX_VALUE, FaultyShell.Mode.FAIL);
            configurator(kind, counter, clean).apply(p);
            steps = counter.calls();
        }
        assertThat(steps).isGreaterThan(8);
        Map<String, String> applied = state(clean);
        if (kind == HostKind.TREE_HOST) {
            assertThat(clean.resolve("boot/grub/grub.cfg")).as("update-grub ran").content().contains("iommu=pt");
        }
        List<Callable<Void>> cases = new ArrayList<>();
        for (FaultyShell.Mode mode : FaultyShell.Mode.values()) {
            for (int k = 1; k <= steps + 1; k++) {
                int step = k;
                cases.add(() -> {
                    applyFault(kind, p, applied, mode, step, steps);
                    return null;
                });
            }
        }
        allOf(cases);
    }

    /** One case of {@link #aFaultAtEveryStepLeavesTheHostUntouchedOrCompletelyApplied}: its own host tree. */
    private void applyFault(HostKind kind, PassthroughPlan p, Map<String, String> applied, FaultyShell.Mode mode, int k,
                            int steps) throws Exception {
        String at = mode + " at step " + k + " of " + steps;
        Path root = faultHost(kind, mode + "-" + k);
        Map<String, String> original = state(root);
        ApplyException failure = null;
        try (HostShell real = shellFor(kind, root)) {
            configurator(kind, new FaultyShell(real, k, mode), root).apply(p);
        } catch (ApplyException e) {
            failure = e;
        }
        Optional<JournalState> journal = nextContact(kind, root);
        Map<String, String> now = state(root);
        if (failure == null) {
            assertThat(now).as("%s: applied", at).isEqualTo(applied);
            assertThat(journal).as(at).contains(JournalState.APPLIED);
            return;
        }
        if (journal.equals(Optional.of(JournalState.APPLIED))) {
            assertThat(failure.getMessage()).as(at).containsAnyOf("continues on the host by itself", "is fully applied");
            assertThat(now).as("%s: the commit went on by itself: fully applied", at).isEqualTo(applied);
            return;
        }
        boolean open = journal.isPresent() && (journal.get() == JournalState.APPLYING
                || journal.get() == JournalState.ROLLING_BACK);
        if (!now.equals(original)) {
            assertThat(open).as("%s: the host (files or boot files) is changed, so the journal must say so, not %s",
                    at, journal).isTrue();
        }
        if (journal.equals(Optional.of(JournalState.ROLLED_BACK)) || failure.getMessage().contains("as it was before")
                || failure.getMessage().contains("Nothing on the host was changed")) {
            assertThat(now).as("%s: said to be as before (%s)", at, failure.getMessage()).isEqualTo(original);
        }
        if (mode == FaultyShell.Mode.FAIL && failure.host().isPresent() && failure.host().get().restored()) {
            assertThat(journal).as("%s: one failed step is recovered in place", at).contains(JournalState.ROLLED_BACK);
        }
        if (open) {
            // recovery with a working connection, as the user would do
            try (HostShell healthy = shellFor(kind, root)) {
                HostConfigurator c = configurator(kind, healthy, root);
                assertThatThrownBy(() -> c.apply(p)).as("apply refuses until rolled back")
                        .hasMessageContaining("interrupted");
                c.rollback(Optional.empty());
            }
            assertThat(journalState(kind, root)).as(at).contains(JournalState.ROLLED_BACK);
        }
        assertThat(state(root)).as("%s: the host is not as before after the rollback", at).isEqualTo(original);
    }

    @ParameterizedTest
    @EnumSource(HostKind.class)
    void aFaultAtEveryStepOfRollbackIsRepairedByRollingBackAgain(HostKind kind) throws Exception {
        Path clean = faultHost(kind, "count");
        PassthroughPlan p = plan(clean);
        int steps;
        try (HostShell real = shellFor(kind, clean)) {
            configurator(kind, real, clean).apply(p);
            FaultyShell counter = new FaultyShell(real, Integer.MAX_VALUE, FaultyShell.Mode.FAIL);
            configurator(kind, counter, clean).rollback(Optional.empty());
            steps = counter.calls();
        }
        List<Callable<Void>> cases = new ArrayList<>();
        for (FaultyShell.Mode mode : FaultyShell.Mode.values()) {
            for (int k = 1; k <= steps; k++) {
                int step = k;
                cases.add(() -> {
                    rollbackFault(kind, p, mode, step, steps);
                    return null;
                });
            }
        }
        allOf(cases);
    }

    /** One case of {@link #aFaultAtEveryStepOfRollbackIsRepairedByRollingBackAgain}: its own host tree. */
    private void rollbackFault(HostKind kind, PassthroughPlan p, FaultyShell.Mode mode, int k, int steps) throws Exception {
        String at = "rollback " + mode + " at step " + k + " of " + steps;
        Path root = faultHost(kind, "rb-" + mode + "-" + k);
        Map<String, String> original = state(root);
        try (HostShell real = shellFor(kind, root)) {
            configurator(kind, real, root).apply(p);
            configurator(kind, new FaultyShell(real, k, mode), root).rollback(Optional.empty());
            assertThat(state(root)).as("%s: reported done", at).isEqualTo(original);
        } catch (ApplyException expected) {
            assertThat(journalState(kind, root)).as("%s: not done, not recorded as done", at)
                    .isNotEqualTo(Optional.of(JournalState.ROLLED_BACK));
            try (HostShell healthy = shellFor(kind, root)) {
                configurator(kind, healthy, root).rollback(Optional.empty());
            }
        }
        assertThat(state(root)).as(at).isEqualTo(original);
        assertThat(journalState(kind, root)).as(at).contains(JournalState.ROLLED_BACK);
    }

    /**
     * Runs independent cases (each on its own host tree) as many at a time as there are cores, plus one: each case waits on the processes
     * of its host's commands, so the cases of one test share the machine's cores. Fails with the first failure.
     */
    private static void allOf(List<Callable<Void>> cases) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(Runtime.getRuntime().availableProcessors() + 1);
        try {
            List<Future<Void>> results = pool.invokeAll(cases);
            for (Future<Void> r : results) {
                try {
                    r.get();
                } catch (ExecutionException e) {
                    if (e.getCause() instanceof Error err) {
                        throw err;
                    }
                    throw (Exception) e.getCause();
                }
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void applyAndRollbackOverSsh() throws Exception {
        Path root = HostTrees.withBootTools(grubHost("ssh"));
        Map<String, String> original = state(root);
        PassthroughPlan p = plan(root);
        try (SysrootSshServer server = new SysrootSshServer(root, dir.resolve("hk"));
             SshShell shell = SshShell.connect(new SshTarget("root", "127.0.0.1", server.port()),
                     new SshShell.Credentials(Optional.of(SysrootSshServer.PASSWORD.toCharArray()), Optional.empty(),
                             Optional.empty()), dir.resolve("kh"), HostKeyPolicy.acceptNew(), Duration.ofSeconds(20))) {
            HostConfigurator c = new HostConfigurator(shell, Optional.empty(), false, Clock.systemUTC());
            ApplyOutcome r = c.apply(p);
            assertThat(r.status()).isEqualTo(ApplyOutcome.Status.APPLIED);
            assertThat(r.commandsRun()).as("the host's own commands").containsExactly("update-grub", "update-initramfs -u -k all");
            assertThat(root.resolve("etc/default/grub")).content().contains("iommu=pt");
            assertThat(root.resolve("boot/grub/grub.cfg")).content().contains("iommu=pt");
            assertThat(new HostProbe().probe(shell, false).files()).containsKey(Journal.PATH);
            ApplyOutcome back = c.rollback(Optional.of(r.journalId()));
            assertThat(back.commandsRun()).containsExactly("update-grub", "update-initramfs -u -k all");
        }
        assertThat(state(root)).as("files and boot files as before").isEqualTo(original);
    }
}
