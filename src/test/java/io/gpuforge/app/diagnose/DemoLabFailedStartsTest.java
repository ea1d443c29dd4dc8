package io.gpuforge.app.diagnose;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.app.AppContext;
import io.gpuforge.app.session.ConnectionSession;
import io.gpuforge.app.settings.LanguageChoice;
import io.gpuforge.app.settings.ThemeChoice;
import io.gpuforge.demo.SimHost;
import io.gpuforge.domain.connections.ConnectionInfo;
import io.gpuforge.domain.diagnose.Collected;
import io.gpuforge.domain.diagnose.Diagnosis;
import io.gpuforge.domain.passthrough.ApplyProgress;
import io.gpuforge.domain.tasks.TaskListener;
import io.gpuforge.domain.tasks.TaskOutcome;
import io.gpuforge.domain.vm.VmAction;
import io.gpuforge.domain.vm.VmRef;
import io.gpuforge.testing.TestContexts;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import io.gpuforge.testing.Eventually;

/**
 * The Demo lab's four VMs that do not start, each from its failed start (already in the task history, with the node's
 * kernel lines) to its cause, its fix applied as a plan, the start that then works (or, for a firmware that has the
 * IOMMU off, still does not: the plan said so), and the rollback after which the start fails again.
 */
class DemoLabFailedStartsTest {

    @TempDir
    Path dir;

    @Test
    void eachFailedStartIsDiagnosedFixedStartedAndRolledBack() throws Exception {
        try (AppContext ctx = TestContexts.create(dir.resolve("home"), dir.resolve("no-sysroot"), ThemeChoice.LIGHT,
                LanguageChoice.ENGLISH)) {
            ctx.secrets().createVault("vault passphrase".toCharArray());
            ConnectionInfo lab = ctx.connections().addDemo("Demo lab");
            ConnectionSession s = ctx.sessions().of(lab);
            for (String node : List.of("pve-3090", "pve-store")) {
                ctx.demoLab().host(node).orElseThrow().rebootTakes(Duration.ofMillis(300)).lineDelay(Duration.ZERO);
            }

            // the VM's side: the emulated display off, then ballooning and memory hotplug off
            for (String[] c : List.of(new String[] {"120", "vga-slot-conflict", "vga"},
                    new String[] {"121", "dma-map-failed", "balloon"})) {
                VmRef vm = new VmRef("pve-3090", c[0]);
                assertThat(start(s, vm).ok()).as("VM " + c[0] + " does not start").isFalse();
                Diagnosis d = diagnose(ctx, lab, vm);
                assertThat(d.cause()).isEqualTo(c[1]);
                FixService.Proposal p = ctx.fixes().propose(s, lab, vm, d.causes().get(0), (h, t, f) -> false);
                assertThat(p.vmFix().orElseThrow().diff()).contains("+" + c[2] + ":");
                FixService.Result r = ctx.fixes().apply(s, p, ApplyProgress.NONE, (h, t, f) -> false);
                assertThat(start(s, vm).ok()).as("VM " + c[0] + " starts once fixed").isTrue();
                assertThat(s.vmAction(vm, VmAction.STOP, TaskListener.none(), () -> false).ok()).isTrue();
                ctx.fixes().rollback(s, lab, r.fix().id(), ApplyProgress.NONE, (h, t, f) -> false);
                assertThat(start(s, vm).ok()).as("VM " + c[0] + " fails again after the rollback").isFalse();
            }

            // the host's side: the card's functions bound to vfio-pci on pve-3090, in effect after its reboot
            VmRef render = new VmRef("pve-3090", "122");
            Diagnosis d = diagnose(ctx, lab, render);
            assertThat(d.cause()).isEqualTo("group-not-viable");
            FixService.Result r = ctx.fixes().apply(s, ctx.fixes().propose(s, lab, render, d.causes().get(0),
                    (h, t, f) -> false), ApplyProgress.NONE, (h, t, f) -> false);
            assertThat(r.rebootNeeded()).isTrue();
            assertThat(start(s, render).ok()).as("not before the host's reboot").isFalse();
            reboot(ctx.demoLab().host("pve-3090").orElseThrow());
            assertThat(start(s, render).ok()).as("VM 122 starts once its host rebooted with the fix").isTrue();
            assertThat(s.vmAction(render, VmAction.STOP, TaskListener.none(), () -> false).ok()).isTrue();
            ctx.fixes().rollback(s, lab, r.fix().id(), ApplyProgress.NONE, (h, t, f) -> false);
            reboot(ctx.demoLab().host("pve-3090").orElseThrow());
            assertThat(start(s, render).ok()).as("VM 122 fails again once rolled back and rebooted").isFalse();

            // a firmware with the IOMMU off: the kernel arguments are applied, the plan says they are not enough
            VmRef nas = new VmRef("pve-store", "124");
            Diagnosis off = diagnose(ctx, lab, nas);
            assertThat(off.cause()).isEqualTo("iommu-off");
            FixService.Proposal p = ctx.fixes().propose(s, lab, nas, off.causes().get(0), (h, t, f) -> false);
            assertThat(io.gpuforge.testing.English.english(p.notDone())).anyMatch(n -> n.contains("no DMAR or IVRS table"));
            FixService.Result kernel = ctx.fixes().apply(s, p, ApplyProgress.NONE, (h, t, f) -> false);
            reboot(ctx.demoLab().host("pve-store").orElseThrow());
            assertThat(start(s, nas).ok()).as("the firmware still has the IOMMU off").isFalse();
            ctx.fixes().rollback(s, lab, kernel.fix().id(), ApplyProgress.NONE, (h, t, f) -> false);
            assertThat(ctx.fixes().applied(lab)).hasSize(4).allMatch(f -> f.rolledBack());
        }
    }

    /** The diagnosis of the VM's last failed start: its task log and the node's kernel log were read. */
    private static Diagnosis diagnose(AppContext ctx, ConnectionInfo lab, VmRef vm) {
        Diagnosis d = ctx.diagnosis().vm(ctx.sessions().of(lab), lab, vm, ctx.hostLogs(), (h, t, f) -> false,
                List.of(), () -> null);
        assertThat(d.collected()).as("the task log of VM " + vm.id()).anySatisfy(c -> {
            assertThat(c.name()).contains(":qmstart:" + vm.id() + ":");
            assertThat(c.read()).isTrue();
        });
        assertThat(d.collected()).filteredOn(c -> c.name().equals("the kernel log of " + vm.node()))
                .singleElement().satisfies(c -> assertThat(c.problem()).isEmpty()).extracting(Collected::read)
                .isEqualTo(true);
        return d;
    }

    private static TaskOutcome start(ConnectionSession s, VmRef vm) throws Exception {
        return s.vmAction(vm, VmAction.START, TaskListener.none(), () -> false);
    }

    private static void reboot(SimHost h) throws InterruptedException {
        h.reboot("systemctl reboot");
        Eventually.until("the simulated host back up", Duration.ofMillis(20_000), () -> h.up());
    }
}
