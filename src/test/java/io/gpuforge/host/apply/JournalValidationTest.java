package io.gpuforge.host.apply;

import io.gpuforge.host.probe.HostProbe;
import io.gpuforge.host.LocalShell;
import io.gpuforge.host.RemoteFiles;
import io.gpuforge.host.TreeShell;

import static io.gpuforge.host.apply.HostConfiguratorTest.state;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpuforge.domain.host.JournalState;
import io.gpuforge.domain.passthrough.PlanOptions;
import io.gpuforge.domain.passthrough.PlanBlockedException;
import io.gpuforge.domain.passthrough.PassthroughOverrides;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gpuforge.domain.host.HostFacts;
import io.gpuforge.domain.pci.PciAddress;
import io.gpuforge.domain.pci.PciDevice;
import io.gpuforge.domain.passthrough.PassthroughPlan;
import io.gpuforge.passthrough.Planner;
import io.gpuforge.passthrough.Readiness;
import io.gpuforge.testing.HostTrees;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A journal on the host is input from the host: rollback restores, deletes and runs as root what it says. One
 * that names a file GPUForge does not write, a path with '..', backups elsewhere or a command that is not a
 * refresh command is refused, naming the entry, and nothing is touched; under a sysroot nothing outside it is.
 */
class JournalValidationTest {

    @TempDir
    Path dir;

    private final ObjectMapper json = new ObjectMapper();

    /** A tree next to a directory "outside" it holding a file that must survive. */
    private Path host(String name) throws IOException {
        Path root = HostTrees.withBootTools(HostTrees.intelGrub(dir.resolve(name)));
        Files.createDirectories(dir.resolve("outside/files/etc/default"));
        Files.writeString(dir.resolve("outside/victim"), "not GPUForge's\n");
        Files.writeString(dir.resolve("outside/files/etc/default/grub"), "GRUB_CMDLINE_LINUX_DEFAULT=\"planted\"\n");
        return root;
    }

    /** An applied-looking journal, changed by {@code edit}, written as the journal and as its manifest. */
    private Journal plant(Path root, Consumer<Journal> edit) throws IOException {
        Journal j = new Journal();
        j.id = "20250101-120000-0123456789ab";
        j.planId = "0123456789ab";
        j.state = JournalState.APPLIED;
        j.backupDir = JournalPolicy.BACKUPS + j.id;
        Journal.FileEntry f = new Journal.FileEntry("/etc/default/grub", true);
        f.written = true;
        j.files.add(f);
        j.commands = new ArrayList<>(List.of("update-grub"));
        j.commandsStarted = new ArrayList<>(j.commands);
        j.functions.add("0000:01:00.0");
        edit.accept(j);
        Path journal = root.resolve(Journal.PATH.substring(1));
        Files.createDirectories(journal.getParent());
        json.writeValue(journal.toFile(), j);
        Path backups = root.resolve((JournalPolicy.BACKUPS + "20250101-120000-0123456789ab").substring(1));
        Files.createDirectories(backups.resolve("files/etc/default"));
        json.writeValue(backups.resolve("manifest.json").toFile(), j);
        Files.writeString(backups.resolve("files/etc/default/grub"), "GRUB_CMDLINE_LINUX_DEFAULT=\"from backup\"\n");
        return j;
    }

    private void refused(Path root, HostConfigurator c, String... named) throws Exception {
        Map<String, String> before = state(root);
        byte[] journal = Files.readAllBytes(root.resolve(Journal.PATH.substring(1)));
        assertThatThrownBy(() -> c.rollback(Optional.empty())).isInstanceOf(ApplyException.class)
                .hasMessageContaining("not one GPUForge wrote").hasMessageContaining(named[0])
                .hasMessageContaining(named.length > 1 ? named[1] : named[0]);
        assertThat(state(root)).as("nothing touched").isEqualTo(before);
        assertThat(root.resolve(Journal.PATH.substring(1))).hasBinaryContent(journal);
        assertThat(dir.resolve("outside/victim")).hasContent("not GPUForge's");
        assertThat(dir.resolve("pwned")).doesNotExist();
    }

    private static HostConfigurator onSysroot(Path root) {
        return new HostConfigurator(new LocalShell(), Optional.of(root.toString()), false, Clock.systemUTC());
    }

    @Test
    void underASysrootAJournalPathWithDotDotNeverReachesOutside() throws Exception {
        Path root = host("h");
        String escape = "/etc/../../outside/victim";
        plant(root, j -> {
            Journal.FileEntry f = new Journal.FileEntry(escape, false);
            f.written = true;
            j.files.add(f);
        });
        refused(root, onSysroot(root), "files[1].path", escape);
    }

    @Test
    void aFileOutsideWhatGpuforgeWritesIsRefused() throws Exception {
        Path root = host("h");
        plant(root, j -> j.files.get(0).path = "/etc/shadow");
        refused(root, onSysroot(root), "files[0].path", "/etc/shadow");
    }

    @Test
    void backupsOutsideTheBackupDirectoryAreRefused() throws Exception {
        Path root = host("h");
        String elsewhere = "/var/lib/gpuforge/backups/../../../../../outside";
        plant(root, j -> j.backupDir = elsewhere);
        refused(root, onSysroot(root), "backupDir", elsewhere);
    }

    @Test
    void aCommandThatIsNotARefreshCommandIsNeverRun() throws Exception {
        Path root = host("h");
        String evil = "touch " + RemoteFiles.q(dir.resolve("pwned").toString());
        plant(root, j -> {
            j.commands.add(evil);
            j.commandsStarted.add(evil);
        });
        try (TreeShell shell = new TreeShell(root)) {
            refused(root, new HostConfigurator(shell, Optional.empty(), false, Clock.systemUTC()), "commands[1]", "touch");
        }
    }

    @Test
    void applyRefusesToStartOverAnInvalidJournal() throws Exception {
        Path root = host("h");
        PassthroughPlan p = Planner.plan(new HostProbe().probeLocal(Optional.of(root)), PciAddress.parse("0000:01:00.0"),
                PlanOptions.defaults());
        plant(root, j -> {
            j.state = JournalState.APPLYING;
            j.files.get(0).path = "/etc/passwd";
        });
        Map<String, String> before = state(root);
        assertThatThrownBy(() -> onSysroot(root).apply(p)).isInstanceOf(ApplyException.class)
                .hasMessageContaining("Nothing was changed").hasMessageContaining("/etc/passwd");
        assertThat(state(root)).isEqualTo(before);
    }

    @Test
    void aManifestThatIsNotTheJournalsOwnIsRefused() throws Exception {
        Path root = host("h");
        plant(root, j -> { });
        Path manifest = root.resolve((JournalPolicy.BACKUPS + "20250101-120000-0123456789ab/manifest.json").substring(1));
        Journal other = json.readValue(manifest.toFile(), Journal.class);
        other.files.add(new Journal.FileEntry("/etc/modules", false));
        json.writeValue(manifest.toFile(), other);
        Map<String, String> before = state(root);
        assertThatThrownBy(() -> onSysroot(root).rollback(Optional.empty())).isInstanceOf(ApplyException.class)
                .hasMessageContaining("manifest").hasMessageContaining("/etc/modules");
        assertThat(state(root)).isEqualTo(before);
    }

    @Test
    void underASysrootALinkThatLeadsOutsideIsNeverFollowed() throws Exception {
        Path root = host("h");
        Files.writeString(dir.resolve("outside/modules"), "# outside the sysroot\n");
        Path modules = root.resolve("etc/modules");
        Files.deleteIfExists(modules);
        Files.createSymbolicLink(modules, Path.of("../../outside/modules"));
        HostFacts f = new HostProbe().probeLocal(Optional.of(root));
        PassthroughPlan p = Planner.plan(f, PciAddress.parse("0000:01:00.0"), PlanOptions.defaults());
        assertThatThrownBy(() -> onSysroot(root).apply(p)).isInstanceOf(ApplyException.class)
                .hasMessageContaining("outside the root");
        assertThat(dir.resolve("outside/modules")).hasContent("# outside the sysroot");
        assertThat(Files.isSymbolicLink(modules)).isTrue();
    }

    /** Every plan the planner makes, on every kind of host, passes the check (so a rollback can undo it). */
    @Test
    void everyPlanThePlannerMakesIsOneTheJournalAccepts() throws Exception {
        List<Path> trees = List.of(HostTrees.intelGrub(dir.resolve("a")), HostTrees.proxmoxSystemdBoot(dir.resolve("b")),
                HostTrees.archMkinitcpio(dir.resolve("c")), HostTrees.noInterruptRemapping(dir.resolve("d")),
                HostTrees.bootVga(dir.resolve("e")), HostTrees.twoIdenticalGpus(dir.resolve("f")), cloudImage(dir.resolve("g")));
        int plans = 0;
        for (Path t : trees) {
            HostFacts f = new HostProbe().probeLocal(Optional.of(t));
            for (PciDevice d : f.pci().devices()) {
                if (!d.isGpu()) {
                    continue;
                }
                PassthroughPlan p;
                try {
                    p = Planner.plan(f, d.address(), new PlanOptions(
                            new PassthroughOverrides(true, true), true, Optional.empty()));
                } catch (PlanBlockedException e) {
                    continue;
                }
                Journal j = new Journal();
                j.id = "20250101-120000-" + p.id();
                j.planId = p.id();
                j.state = JournalState.APPLYING;
                j.backupDir = JournalPolicy.BACKUPS + j.id;
                p.edits().forEach(e -> j.files.add(new Journal.FileEntry(e.path(), e.before().isPresent())));
                j.commands = new ArrayList<>(p.commands());
                p.functions().forEach(x -> j.functions.add(x.toString()));
                j.kernelArgs = AddedKernelArgs.of(p);
                assertThat(JournalPolicy.problem(j)).as("%s %s", t.getFileName(), d.address()).isEmpty();
                plans++;
            }
        }
        assertThat(plans).isGreaterThanOrEqualTo(7);
    }

    /** The Intel GRUB host as an Ubuntu cloud image leaves it: a grub.d drop-in sets the command line. */
    private static Path cloudImage(Path dir) throws Exception {
        Path t = HostTrees.intelGrub(dir);
        Path dropIn = t.resolve("etc/default/grub.d/50-cloudimg-settings.cfg");
        Files.createDirectories(dropIn.getParent());
        Files.writeString(dropIn, "GRUB_CMDLINE_LINUX_DEFAULT=\"console=tty1 console=ttyS0\"\n");
        return t;
    }

    @Test
    void aGrubDropInIsAFileGpuforgeWritesButNothingElseUnderGrubD() throws Exception {
        Path t = cloudImage(dir.resolve("h"));
        HostFacts f = new HostProbe().probeLocal(Optional.of(t));
        PassthroughPlan p = Planner.plan(f, f.pci().gpus().get(0).address(), PlanOptions.defaults());
        assertThat(p.edits()).extracting(PassthroughPlan.FileEdit::path).contains("/etc/default/grub.d/50-cloudimg-settings.cfg");
        assertThat(AddedKernelArgs.of(p)).contains("iommu=pt");
        assertThat(JournalPolicy.GRUB_DROP_IN.matcher("/etc/default/grub.d/../../shadow.cfg").matches()).isFalse();
        assertThat(JournalPolicy.GRUB_DROP_IN.matcher("/etc/default/grub.d/x.sh").matches()).isFalse();
    }
}
