package io.gpuforge.host;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpuforge.domain.HostFacts;
import io.gpuforge.domain.PciAddress;
import io.gpuforge.passthrough.PassthroughPlan;
import io.gpuforge.passthrough.Planner;
import io.gpuforge.testing.HostTrees;
import io.gpuforge.testing.SysrootSshServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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
                if (rel.startsWith("var/lib/gpuforge") || !Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) {
                    continue;
                }
                out.put(rel, PosixFilePermissions.toString(Files.getPosixFilePermissions(p)) + "\n"
                        + new String(Files.readAllBytes(p), java.nio.charset.StandardCharsets.ISO_8859_1));
            }
        }
        return out;
    }

    private static PassthroughPlan plan(Path root) throws Exception {
        HostFacts f = new HostProbe().probeLocal(Optional.of(root));
        return Planner.plan(f, GPU, Planner.Options.defaults());
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
        HostConfigurator.Outcome r = c.apply(p);
        assertThat(r.status()).isEqualTo(HostConfigurator.Outcome.Status.APPLIED);
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

        assertThat(c.apply(p).status()).as("same plan again").isEqualTo(HostConfigurator.Outcome.Status.NOTHING_TO_DO);
        assertThat(plan(root).edits()).as("a new plan on the applied host").isEmpty();
        assertThat(state(root)).isEqualTo(applied);

        HostConfigurator.Outcome back = c.rollback(Optional.empty());
        assertThat(back.status()).isEqualTo(HostConfigurator.Outcome.Status.ROLLED_BACK);
        assertThat(state(root)).isEqualTo(original);
        assertThat(c.rollback(Optional.empty()).status()).isEqualTo(HostConfigurator.Outcome.Status.NOTHING_TO_DO);
        assertThat(c.journal().orElseThrow().state).isEqualTo(Journal.State.ROLLED_BACK);
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

    @Test
    void aFaultAtEveryStepLeavesTheHostUntouchedOrCompletelyApplied() throws Exception {
        Path clean = grubHost("count");
        FaultyShell counter = new FaultyShell(new LocalShell(), Integer.MAX_VALUE, FaultyShell.Mode.FAIL);
        configurator(counter, clean).apply(plan(clean));
        int steps = counter.calls();
        assertThat(steps).isGreaterThan(8);
        Map<String, String> applied = state(clean);
        for (FaultyShell.Mode mode : FaultyShell.Mode.values()) {
            for (int k = 1; k <= steps + 1; k++) {
                Path root = grubHost(mode + "-" + k);
                Map<String, String> original = state(root);
                PassthroughPlan p = plan(root);
                try {
                    configurator(new FaultyShell(new LocalShell(), k, mode), root).apply(p);
                } catch (ApplyException expected) {
                    // recovery with a working connection, as the user would do
                    HostConfigurator healthy = configurator(new LocalShell(), root);
                    Optional<Journal> j = healthy.journal();
                    if (j.isPresent() && j.get().state != Journal.State.APPLIED && j.get().state != Journal.State.ROLLED_BACK) {
                        assertThatThrownBy(() -> healthy.apply(p)).as("apply refuses until rolled back")
                                .hasMessageContaining("interrupted");
                        healthy.rollback(Optional.empty());
                    }
                }
                Map<String, String> now = state(root);
                assertThat(now.equals(original) || now.equals(applied))
                        .as("%s at step %d of %d: the host is neither untouched nor applied", mode, k, steps).isTrue();
            }
        }
    }

    @Test
    void aFaultAtEveryStepOfRollbackIsRepairedByRollingBackAgain() throws Exception {
        Path clean = grubHost("count");
        configurator(new LocalShell(), clean).apply(plan(clean));
        FaultyShell counter = new FaultyShell(new LocalShell(), Integer.MAX_VALUE, FaultyShell.Mode.FAIL);
        configurator(counter, clean).rollback(Optional.empty());
        int steps = counter.calls();
        for (int k = 1; k <= steps; k++) {
            Path root = grubHost("rb-" + k);
            Map<String, String> original = state(root);
            configurator(new LocalShell(), root).apply(plan(root));
            try {
                configurator(new FaultyShell(new LocalShell(), k, FaultyShell.Mode.KILL), root).rollback(Optional.empty());
            } catch (ApplyException expected) {
                configurator(new LocalShell(), root).rollback(Optional.empty());
            }
            assertThat(state(root)).as("rollback fault at step %d of %d", k, steps).isEqualTo(original);
        }
    }

    @Test
    void applyAndRollbackOverSsh() throws Exception {
        Path root = grubHost("ssh");
        Map<String, String> original = state(root);
        PassthroughPlan p = plan(root);
        try (SysrootSshServer server = new SysrootSshServer(root, dir.resolve("hk"));
             SshShell shell = SshShell.connect(new SshTarget("root", "127.0.0.1", server.port()),
                     new SshShell.Credentials(Optional.of(SysrootSshServer.PASSWORD.toCharArray()), Optional.empty(),
                             Optional.empty()), dir.resolve("kh"), HostKeyPolicy.acceptNew(), Duration.ofSeconds(20))) {
            HostConfigurator c = new HostConfigurator(shell, Optional.empty(), false, Clock.systemUTC());
            HostConfigurator.Outcome r = c.apply(p);
            assertThat(r.status()).isEqualTo(HostConfigurator.Outcome.Status.APPLIED);
            assertThat(r.commandsRun()).as("a sysroot behind the test server: commands are not run").isEmpty();
            assertThat(root.resolve("etc/default/grub")).content().contains("iommu=pt");
            assertThat(new HostProbe().probe(shell, false).files()).containsKey(Journal.PATH);
            c.rollback(Optional.of(r.journalId()));
        }
        assertThat(state(root)).isEqualTo(original);
    }
}
