package io.gpuforge.app.diagnose;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpuforge.app.AppContext;
import io.gpuforge.app.settings.LanguageChoice;
import io.gpuforge.app.settings.ThemeChoice;
import io.gpuforge.demo.PveSimulator;
import io.gpuforge.demo.SimCluster;
import io.gpuforge.domain.BackendException;
import io.gpuforge.domain.connections.ConnectionInfo;
import io.gpuforge.domain.diagnose.AppliedFix;
import io.gpuforge.domain.diagnose.Diagnosis;
import io.gpuforge.domain.diagnose.FixPlan;
import io.gpuforge.domain.diagnose.LogInput;
import io.gpuforge.domain.diagnose.LogSource;
import io.gpuforge.domain.diagnose.Origin;
import io.gpuforge.domain.pci.PciAddress;
import io.gpuforge.domain.passthrough.ApplyProgress;
import io.gpuforge.domain.vm.VmRef;
import io.gpuforge.hypervisor.proxmox.PveContract;
import io.gpuforge.passthrough.Planner;
import io.gpuforge.testing.HostTrees;
import io.gpuforge.testing.SysrootBuilder;
import io.gpuforge.testing.SysrootSshServer;
import io.gpuforge.testing.TestContexts;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * From a diagnosed failed start to the fix applied as a plan and back by rollback, on the Proxmox VE simulator: the VM
 * side (an iGPU VM's emulated display turned off) written against the configuration read and verified by reading it
 * back; the host side (passthrough's plan of the card: its audio function bound to vfio-pci too) journaled on the
 * node's linked host
 * (the embedded SSH server over a fixture host) and rolled back there byte for byte.
 */
class FixServiceTest {

    @TempDir
    Path dir;

    private static final String VGA = "kvm: -device vfio-pci,host=00:02.0,addr=0x02,x-igd-gms=1: PCI: slot 2 function 0"
            + " not available for vfio-pci, in use by VGA";

    @Test
    void theVmSideIsAppliedKeptAndRolledBackAndAChangedVmIsNotRolledBack() throws Exception {
        try (PveSimulator sim = new PveSimulator(SimCluster.contractLab());
             AppContext ctx = TestContexts.create(dir.resolve("home"), dir.resolve("no-sysroot"), ThemeChoice.LIGHT,
                     LanguageChoice.ENGLISH)) {
            ctx.secrets().createVault("vault passphrase".toCharArray());
            ConnectionInfo lab = LinkedLab.lab(ctx, sim);
            var api = sim.tokenClient(PveContract.load());
            api.put("/nodes/pve-4090/qemu/102/config", Map.of("vga", "std"));
            VmRef vm = failedStart(ctx, sim, lab, VGA);
            Diagnosis d = ctx.diagnosis().vm(ctx.sessions().of(lab), lab, vm, ctx.hostLogs(), (h, t, f) -> false,
                    List.of(), () -> null);
            assertThat(d.cause()).isEqualTo("vga-slot-conflict");

            FixService.Proposal p = ctx.fixes().propose(ctx.sessions().of(lab), lab, vm, d.causes().get(0),
                    (h, t, f) -> false);
            assertThat(p.host()).as("nothing on the host for this cause").isEmpty();
            assertThat(p.vmFix()).get().satisfies(f -> assertThat(f.diff()).contains("-vga: std").contains("+vga: none"));
            assertThat(p.changesNothing()).isFalse();

            FixService.Result r = ctx.fixes().apply(ctx.sessions().of(lab), p, ApplyProgress.NONE, (h, t, f) -> false);
            assertThat(config(ctx, lab, vm)).containsEntry("vga", "none");
            assertThat(io.gpuforge.testing.English.english(r.verified())).anyMatch(v -> v.contains("reads back with the change"));
            assertThat(io.gpuforge.testing.English.english(r.notChecked())).anyMatch(n -> n.startsWith("Whether VM 102 starts now"));
            assertThat(r.rebootNeeded()).isFalse();
            assertThat(ctx.fixes().applied(lab)).extracting(AppliedFix::id).containsExactly(r.fix().id());

            // planning it again changes nothing: the fix is there
            assertThat(ctx.fixes().propose(ctx.sessions().of(lab), lab, vm, d.causes().get(0), (h, t, f) -> false)
                    .changesNothing()).isTrue();

            AppliedFix back = ctx.fixes().rollback(ctx.sessions().of(lab), lab, r.fix().id(), ApplyProgress.NONE,
                    (h, t, f) -> false);
            assertThat(back.rolledBack()).isTrue();
            assertThat(config(ctx, lab, vm)).containsEntry("vga", "std");
            assertThat(ctx.fixes().applied(lab)).singleElement().satisfies(f -> assertThat(f.rolledBack()).isTrue());
            assertThatThrownBy(() -> ctx.fixes().rollback(ctx.sessions().of(lab), lab, r.fix().id(),
                    ApplyProgress.NONE, (h, t, f) -> false)).hasMessageContaining("rolled back already");

            // applied again, then someone changes the display: the rollback refuses and changes nothing
            FixService.Result again = ctx.fixes().apply(ctx.sessions().of(lab), ctx.fixes().propose(
                    ctx.sessions().of(lab), lab, vm, d.causes().get(0), (h, t, f) -> false), ApplyProgress.NONE,
                    (h, t, f) -> false);
            api.put("/nodes/pve-4090/qemu/102/config", Map.of("vga", "qxl"));
            assertThatThrownBy(() -> ctx.fixes().rollback(ctx.sessions().of(lab), lab, again.fix().id(),
                    ApplyProgress.NONE, (h, t, f) -> false)).isInstanceOf(BackendException.class)
                    .hasMessageContaining("changed since the fix");
            assertThat(config(ctx, lab, vm)).containsEntry("vga", "qxl");
        }
    }

    @Test
    void theHostSideIsJournaledOnTheLinkedHostAndRolledBackThere() throws Exception {
        Path root = HostTrees.withBootTools(HostTrees.intelGrub(dir.resolve("pve-4090")));
        new SysrootBuilder(root)
                .pci("0000:02:00.0", "10de", "2684", "030000", 16, "vfio-pci", 16L << 20)
                .pci("0000:02:00.1", "10de", "22ba", "040300", 16, "snd_hda_intel", 16L << 10);
        try (PveSimulator sim = new PveSimulator(SimCluster.contractLab());
             SysrootSshServer ssh = new SysrootSshServer(root, dir.resolve("host-key.ser"));
             AppContext ctx = TestContexts.create(dir.resolve("home"), dir.resolve("no-sysroot"), ThemeChoice.LIGHT,
                     LanguageChoice.ENGLISH)) {
            ConnectionInfo lab = vm102WithTheCard(ctx, sim, ssh);
            VmRef vm = failedStart(ctx, sim, lab, "kvm: -device vfio-pci,host=0000:02:00.0,id=hostpci0.0: vfio"
                    + " 0000:02:00.0: group 16 is not viable");
            Diagnosis d = ctx.diagnosis().vm(ctx.sessions().of(lab), lab, vm, ctx.hostLogs(), (h, t, f) -> false,
                    List.of(), () -> null);
            assertThat(d.cause()).isEqualTo("group-not-viable");

            FixService.Proposal p = ctx.fixes().propose(ctx.sessions().of(lab), lab, vm, d.causes().get(0),
                    (h, t, f) -> false);
            assertThat(p.vmFix()).isEmpty();
            assertThat(p.host()).as(String.join("\n", io.gpuforge.testing.English.english(p.notDone()))).get().satisfies(h -> {
                assertThat(h.functions()).as("the card's functions, read from the host").extracting(Object::toString)
                        .containsExactly("0000:02:00.0", "0000:02:00.1");
                assertThat(h.edits()).anySatisfy(e -> {
                    assertThat(e.path()).isEqualTo(Planner.MODPROBE_FILE);
                    assertThat(e.diff()).contains("+options vfio-pci ids=10de:22ba,10de:2684")
                            .contains("+softdep snd_hda_intel pre: vfio-pci");
                });
                assertThat(h.commands()).contains("update-initramfs -u -k all");
            });
            String grub = Files.readString(root.resolve("etc/default/grub"));

            FixService.Result r = ctx.fixes().apply(ctx.sessions().of(lab), p, ApplyProgress.NONE, (h, t, f) -> false);
            Path conf = root.resolve("etc/modprobe.d/gpuforge-vfio.conf");
            assertThat(Files.readString(conf)).contains("softdep snd_hda_intel pre: vfio-pci");
            assertThat(r.rebootNeeded()).isTrue();
            assertThat(r.fix().hostJournal()).isPresent();
            assertThat(io.gpuforge.testing.English.english(r.notChecked())).anyMatch(n -> n.contains("when pve-4090 reboots"));

            ctx.fixes().rollback(ctx.sessions().of(lab), lab, r.fix().id(), ApplyProgress.NONE, (h, t, f) -> false);
            assertThat(conf).doesNotExist();
            assertThat(Files.readString(root.resolve("etc/default/grub"))).isEqualTo(grub);
        }
    }

    /**
     * The same BAR line with a framebuffer, as the host's kernel log holds it and as root in the guest could write it
     * into the guest's own log (/dev/kmsg): only the host's picks the host's kernel arguments; the guest's names no
     * host cause at all (issue 74), and a pasted one leaves the host alone and says why (issue 59, finding 8).
     */
    @Test
    void aHostFixFollowsOnlyTheHostsOwnLines() throws Exception {
        Path root = HostTrees.withBootTools(HostTrees.intelGrub(dir.resolve("pve-4090")));
        new SysrootBuilder(root).pci("0000:02:00.0", "10de", "2684", "030000", 16, "vfio-pci", 16L << 20);
        String bar = "[   12.345678] vfio-pci 0000:02:00.0: BAR 1: can't reserve [mem 0xc0000000-0xcfffffff 64bit pref]\n"
                + "[    0.512345] efifb: framebuffer at 0xc0000000, using 3072k, total 3072k\n";
        try (PveSimulator sim = new PveSimulator(SimCluster.contractLab());
             SysrootSshServer ssh = new SysrootSshServer(root, dir.resolve("host-key.ser"));
             AppContext ctx = TestContexts.create(dir.resolve("home"), dir.resolve("no-sysroot"), ThemeChoice.LIGHT,
                     LanguageChoice.ENGLISH)) {
            ConnectionInfo lab = vm102WithTheCard(ctx, sim, ssh);
            VmRef vm = new VmRef("pve-4090", "102");
            Diagnosis fromGuest = io.gpuforge.diagnose.Diagnoser.diagnose(List.of(new LogInput("dmesg", Optional.of(
                    LogSource.KERNEL_LOG), bar, Origin.GUEST)), List.of());
            assertThat(fromGuest.cause()).as("a guest's kernel has no vfio-pci: its lines make no host cause (issue 74)")
                    .isEqualTo("unknown");
            for (Origin origin : List.of(Origin.PASTED, Origin.HOST)) {
                Diagnosis d = io.gpuforge.diagnose.Diagnoser.diagnose(List.of(new LogInput("dmesg", Optional.of(
                        LogSource.KERNEL_LOG), bar, origin)), List.of());
                assertThat(d.cause()).isEqualTo("bar-reserved-by-framebuffer");
                assertThat(d.causes().get(0).evidence()).allSatisfy(e -> assertThat(e.origin()).isEqualTo(origin));
                FixService.Proposal p = ctx.fixes().propose(ctx.sessions().of(lab), lab, vm, d.causes().get(0),
                        (h, t, f) -> false);
                if (origin == Origin.HOST) {
                    assertThat(p.host()).as(String.join("\n", io.gpuforge.testing.English.english(p.notDone()))).get().satisfies(h -> assertThat(h.edits())
                            .anySatisfy(e -> assertThat(e.diff()).contains("initcall_blacklist=sysfb_init")));
                } else {
                    assertThat(p.host()).as(origin + ": no host change from lines anyone could write").isEmpty();
                    assertThat(io.gpuforge.testing.English.english(p.notDone())).anyMatch(n -> n.contains("is not planned: no line of pve-4090's own logs"));
                    assertThat(p.changesNothing()).isTrue();
                }
            }
        }
    }

    /** A udev rule's device is each function the VM's configuration passes through, never a log's address. */
    @Test
    void udevRulesNameTheVmsOwnFunctions() {
        FixPlan fp = FixPlan.modprobe("options vfio-pci disable_idle_d3=1").withUdevRules(List.of(
                "ACTION==\"add\", SUBSYSTEM==\"pci\", KERNEL==\"0000:66:00.0\", ATTR{d3cold_allowed}=\"0\"",
                "ACTION==\"add\", SUBSYSTEM==\"pci\", ATTR{vendor}==\"0x1002\", RUN+=\"/bin/true\""));
        FixPlan out = FixService.withAddresses(fp, List.of(PciAddress.parse("0000:02:00.0"),
                PciAddress.parse("0000:02:00.1")));
        assertThat(out.udevRules()).containsExactly(
                "ACTION==\"add\", SUBSYSTEM==\"pci\", KERNEL==\"0000:02:00.0\", ATTR{d3cold_allowed}=\"0\"",
                "ACTION==\"add\", SUBSYSTEM==\"pci\", KERNEL==\"0000:02:00.1\", ATTR{d3cold_allowed}=\"0\"",
                "ACTION==\"add\", SUBSYSTEM==\"pci\", ATTR{vendor}==\"0x1002\", RUN+=\"/bin/true\"");
        assertThat(out.modprobe()).isEqualTo(fp.modprobe());
    }

    /** The lab saved with pve-4090 linked to its SSH host, and VM 102 given the card 02:00.0 by its mapping. */
    private static ConnectionInfo vm102WithTheCard(AppContext ctx, PveSimulator sim, SysrootSshServer ssh)
            throws Exception {
        ctx.secrets().createVault("vault passphrase".toCharArray());
        ConnectionInfo lab = LinkedLab.lab(ctx, sim);
        LinkedLab.linkSshHost(ctx, ssh, lab, "pve-4090");
        sim.tokenClient(PveContract.load()).put("/nodes/pve-4090/qemu/102/config",
                Map.of("hostpci0", "mapping=gpu-4090-b,pcie=1"));
        return lab;
    }

    /** VM 102 on pve-4090 fails its start with {@code line} in its task log. */
    private static VmRef failedStart(AppContext ctx, PveSimulator sim, ConnectionInfo lab, String line)
            throws Exception {
        sim.cluster().failStarts(102, List.of(line), "start failed: QEMU exited with code 1");
        sim.tokenClient(PveContract.load()).post("/nodes/pve-4090/qemu/102/status/start", Map.of());
        VmRef vm = new VmRef("pve-4090", "102");
        io.gpuforge.testing.Eventually.untilHolds("the failed start in the task log", java.time.Duration.ofSeconds(30),
                () -> ctx.sessions().of(lab).lastFailedStart(vm, 10).isPresent());
        return vm;
    }

    private static Map<String, String> config(AppContext ctx, ConnectionInfo lab, VmRef vm) throws Exception {
        return ctx.sessions().of(lab).readConfig(vm).settings();
    }
}
