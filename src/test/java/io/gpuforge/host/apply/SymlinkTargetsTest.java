package io.gpuforge.host.apply;

import io.gpuforge.host.LocalShell;
import io.gpuforge.host.TreeShell;
import io.gpuforge.host.apply.ApplyException;
import io.gpuforge.host.apply.HostConfigurator;
import io.gpuforge.host.probe.HostProbe;

import static io.gpuforge.host.apply.HostConfiguratorTest.state;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpuforge.domain.passthrough.ApplyOutcome;
import io.gpuforge.domain.host.JournalState;
import io.gpuforge.domain.passthrough.PlanOptions;
import io.gpuforge.domain.pci.PciAddress;
import io.gpuforge.domain.passthrough.PassthroughPlan;
import io.gpuforge.passthrough.Planner;
import io.gpuforge.testing.HostTrees;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * /etc/default/grub or /etc/modules as a symbolic link (etckeeper, config management, a distribution's own
 * links): the real file is edited, the link stays, mode and owner come from the real file, and a write whose
 * owner or data cannot be kept replaces nothing.
 */
class SymlinkTargetsTest {

    @TempDir
    Path dir;

    private static final PciAddress GPU = PciAddress.parse("0000:01:00.0");

    private static PassthroughPlan plan(Path root) throws Exception {
        return Planner.plan(new HostProbe().probeLocal(Optional.of(root)), GPU, PlanOptions.defaults());
    }

    /** grub: a relative link to a file with mode 600; modules: an absolute link (as on the host: inside the root). */
    private static Path linkedHost(Path root) throws Exception {
        Path grub = root.resolve("etc/default/grub");
        Path real = root.resolve("etc/grub-config/grub.conf");
        Files.createDirectories(real.getParent());
        Files.move(grub, real);
        Files.setPosixFilePermissions(real, PosixFilePermissions.fromString("rw-------"));
        Files.createSymbolicLink(grub, Path.of("../grub-config/grub.conf"));
        Path modules = root.resolve("usr/lib/gpuforge-test/modules");
        Files.createDirectories(modules.getParent());
        Files.writeString(modules, "# /etc/modules: kernel modules to load at boot time.\nloop\n");
        Files.createSymbolicLink(root.resolve("etc/modules"), Path.of("/usr/lib/gpuforge-test/modules"));
        return root;
    }

    @Test
    void theRealFileIsEditedThroughTheLinkAndRestoredByteForByte() throws Exception {
        Path root = linkedHost(HostTrees.intelGrub(dir.resolve("h")));
        Map<String, String> original = state(root);
        byte[] grubBefore = Files.readAllBytes(root.resolve("etc/grub-config/grub.conf"));
        PassthroughPlan p = plan(root);
        assertThat(p.edits()).extracting(PassthroughPlan.FileEdit::path).contains("/etc/default/grub", "/etc/modules");
        assertThat(p.edits().stream().filter(e -> e.path().equals("/etc/modules")).findFirst().orElseThrow().before())
                .as("the probe read the link's target in the root").hasValueSatisfying(b -> assertThat(b).contains("loop"));
        HostConfigurator c = new HostConfigurator(new LocalShell(), Optional.of(root.toString()), false, Clock.systemUTC());
        ApplyOutcome r = c.apply(p);

        assertThat(Files.isSymbolicLink(root.resolve("etc/default/grub"))).as("the link is kept").isTrue();
        assertThat(Files.readSymbolicLink(root.resolve("etc/default/grub"))).isEqualTo(Path.of("../grub-config/grub.conf"));
        assertThat(root.resolve("etc/grub-config/grub.conf")).content().contains("iommu=pt");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(root.resolve("etc/grub-config/grub.conf"))))
                .as("the real file's mode, not the link's 777").isEqualTo("rw-------");
        assertThat(Files.readSymbolicLink(root.resolve("etc/modules"))).isEqualTo(Path.of("/usr/lib/gpuforge-test/modules"));
        assertThat(root.resolve("usr/lib/gpuforge-test/modules")).content().contains("vfio_pci").contains("loop");
        assertThat(root.resolve(r.backupDir().orElseThrow().substring(1) + "/files/etc/default/grub"))
                .as("the backup holds the real file's bytes").hasBinaryContent(grubBefore);
        try (Stream<Path> s = Files.walk(root)) {
            assertThat(s.filter(x -> x.toString().endsWith(".gpuforge-tmp"))).isEmpty();
        }

        c.rollback(Optional.empty());
        assertThat(Files.readSymbolicLink(root.resolve("etc/default/grub"))).isEqualTo(Path.of("../grub-config/grub.conf"));
        assertThat(Files.readSymbolicLink(root.resolve("etc/modules"))).isEqualTo(Path.of("/usr/lib/gpuforge-test/modules"));
        assertThat(root.resolve("etc/grub-config/grub.conf")).hasBinaryContent(grubBefore);
        assertThat(state(root)).isEqualTo(original);
    }

    @Test
    void aChownThatFailsFailsTheWriteInsteadOfBeingIgnored() throws Exception {
        Path root = HostTrees.withBootTools(HostTrees.intelGrub(dir.resolve("h")));
        Map<String, String> original = state(root);
        PassthroughPlan p = plan(root);
        try (TreeShell shell = new TreeShell(root)) {
            // a host where giving a file its owner fails (a read-only or foreign-owned mount, a restricted sudo)
            shell.tree().tool("chown", "#!/bin/sh\ncase \"$2\" in */var/lib/gpuforge/*) exec \"$0.real\" \"$@\" ;; esac\n"
                    + "echo \"chown: changing ownership of '$2': Operation not permitted\" >&2\nexit 1\n");
            HostConfigurator c = new HostConfigurator(shell, Optional.empty(), false, Clock.systemUTC());
            assertThatThrownBy(() -> c.apply(p)).isInstanceOf(ApplyException.class)
                    .hasMessageContaining("Operation not permitted").hasMessageContaining("owner");
            assertThat(root.resolve("etc/default/grub")).content().doesNotContain("iommu=pt");
            assertThat(state(root)).isEqualTo(original);
            try (Stream<Path> s = Files.walk(root)) {
                assertThat(s.filter(x -> x.toString().endsWith(".gpuforge-tmp"))).as("no temp file left").isEmpty();
            }
        }
    }

    @Test
    void aWriteWhoseDataCannotBeFlushedReplacesNothing() throws Exception {
        Path root = HostTrees.withBootTools(HostTrees.intelGrub(dir.resolve("h")));
        Map<String, String> original = state(root);
        PassthroughPlan p = plan(root);
        try (TreeShell shell = new TreeShell(root)) {
            shell.tree().tool("sync", "#!/bin/sh\ncase \"$*\" in *var/lib/gpuforge/*) exec \"$0.real\" \"$@\" ;; esac\n"
                    + "echo 'sync: error syncing: Input/output error' >&2\nexit 1\n");
            HostConfigurator c = new HostConfigurator(shell, Optional.empty(), false, Clock.systemUTC());
            assertThatThrownBy(() -> c.apply(p)).isInstanceOf(ApplyException.class)
                    .hasMessageContaining("flushed to disk");
            assertThat(root.resolve("etc/default/grub")).content().doesNotContain("iommu=pt");
            shell.tree().realTool("sync");
            c.journal().filter(j -> j.state != JournalState.ROLLED_BACK).ifPresent(j -> {
                try {
                    c.rollback(Optional.empty());
                } catch (ApplyException e) {
                    throw new AssertionError(e);
                }
            });
            assertThat(state(root)).isEqualTo(original);
        }
    }
}
