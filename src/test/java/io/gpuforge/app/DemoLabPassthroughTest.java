package io.gpuforge.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpuforge.app.passthrough.GpuAssignments;
import io.gpuforge.app.passthrough.PassthroughChain;
import io.gpuforge.app.passthrough.PassthroughProposal;
import io.gpuforge.app.passthrough.PassthroughSteps;
import io.gpuforge.app.passthrough.PassthroughService;
import io.gpuforge.app.passthrough.PassthroughStatus;
import io.gpuforge.app.passthrough.PlanHistory;
import io.gpuforge.app.host.HostTarget;
import io.gpuforge.app.settings.LanguageChoice;
import io.gpuforge.app.settings.ThemeChoice;
import io.gpuforge.demo.SimHost;
import io.gpuforge.domain.passthrough.ApplyOutcome;
import io.gpuforge.domain.passthrough.ApplyProgress;
import io.gpuforge.domain.vm.CloneRequest;
import io.gpuforge.domain.connections.ConnectionInfo;
import io.gpuforge.domain.host.HostException;
import io.gpuforge.domain.host.JournalState;
import io.gpuforge.domain.passthrough.PassthroughPlan;
import io.gpuforge.domain.pci.PciAddress;
import io.gpuforge.domain.passthrough.PlanOptions;
import io.gpuforge.domain.tasks.TaskListener;
import io.gpuforge.domain.tasks.TaskOutcome;
import io.gpuforge.domain.vm.VmRef;
import io.gpuforge.domain.vm.VmAction;
import io.gpuforge.domain.BackendException;
import io.gpuforge.domain.passthrough.ConfigChange;
import io.gpuforge.testing.HostTrees;
import io.gpuforge.testing.TestContexts;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Passthrough end to end on the Demo lab through the app services the window and the CLI share: each node's
 * simulated host is read, planned, applied, rebooted through the Proxmox API, verified, and the GPU attached to a VM;
 * the applied plans are the host's history and roll back newest first.
 */
class DemoLabPassthroughTest {

    private static final PciAddress GPU = PciAddress.parse("0000:02:00.0");
    private AppContext ctx;
    private ConnectionInfo demo;
    private HostTarget pve3090;
    private SimHost host;
    private final List<String> lines = new ArrayList<>();
    private final List<PassthroughSteps.State> steps = new ArrayList<>();

    @BeforeEach
    void open(@TempDir Path dir) throws Exception {
        ctx = TestContexts.create(dir.resolve("home"), HostTrees.proxmoxSystemdBoot(dir.resolve("sysroot")),
                ThemeChoice.LIGHT, LanguageChoice.ENGLISH);
        demo = ctx.connections().addDemo("Demo lab");
        pve3090 = new HostTarget.Linked(demo, "pve-3090");
        host = ctx.demoLab().host("pve-3090").orElseThrow().rebootTakes(Duration.ofMillis(400))
                .lineDelay(Duration.ZERO).waitLimit(Duration.ofSeconds(20));
    }

    @AfterEach
    void close() {
        ctx.close();
    }

    private VmRef cloneVm(String name) throws Exception {
        TaskOutcome t = ctx.sessions().of(demo).cloneVm(new CloneRequest(new VmRef("pve-3090", "9000"), name,
                Optional.empty(), false, Optional.empty()), TaskListener.none(), () -> false);
        assertThat(t.ok()).as(t.status()).isTrue();
        return t.created().orElseThrow();
    }

    private PassthroughChain.Outcome chain(VmRef vm, PciAddress gpu) throws Exception {
        return chain(vm, gpu, p -> true);
    }

    private PassthroughChain.Outcome chain(VmRef vm, PciAddress gpu, Predicate<PassthroughProposal> confirm)
            throws Exception {
        PassthroughChain chain = new PassthroughChain(ctx.passthrough(), ctx.hosts(), ctx.sessions());
        return chain.run(new PassthroughChain.Request(pve3090, ctx.sessions().of(demo), vm, gpu, PlanOptions.defaults(),
                false), confirm, new PassthroughChain.Listener() {
                    @Override
                    public void step(PassthroughSteps.State step, String detail) {
                        steps.add(step);
                    }

                    @Override
                    public void line(String text) {
                        lines.add(text);
                    }
                }, () -> false, (h, t, f) -> false);
    }

    @Test
    void theWholeChainRunsOnTheSimulatedHostAndTheGpuEndsUpInTheVm() throws Exception {
        VmRef vm = cloneVm("gpu-lab-01");
        PassthroughChain.Outcome o = chain(vm, GPU);
        assertThat(steps).containsExactly(PassthroughSteps.State.CHECK, PassthroughSteps.State.APPLY,
                PassthroughSteps.State.REBOOT, PassthroughSteps.State.VERIFY, PassthroughSteps.State.ATTACH);
        assertThat(o.before().stage()).isEqualTo(PassthroughStatus.Stage.NEEDS_CHANGES);
        assertThat(o.applied().orElseThrow().outcome().status()).isEqualTo(ApplyOutcome.Status.APPLIED);
        assertThat(lines).contains("running proxmox-boot-tool refresh", "running update-initramfs -u -k all")
                .anyMatch(l -> l.contains("Copying and configuring kernels"));
        assertThat(o.reboot().orElseThrow().bootIdAfter()).isNotEqualTo(o.reboot().orElseThrow().bootIdBefore());
        assertThat(host.commands()).extracting(SimHost.Recorded::command).last().asString()
                .startsWith("reboot (Proxmox VE API");
        assertThat(o.verify().orElseThrow().ok()).isTrue();
        assertThat(o.attached().changes()).anyMatch(c -> c.startsWith("hostpci0: mapping=") && c.endsWith(",pcie=1"))
                .contains("balloon: 0");
        assertThat(ctx.sessions().of(demo).readConfig(vm).details().hostDevices()).contains(GPU);

        steps.clear();
        VmRef second = cloneVm("gpu-lab-02");
        PassthroughStatus now = ctx.passthrough().status(ctx.hosts().read(pve3090, (h, t, f) -> false),
                PciAddress.parse("0000:03:00.0"), PlanOptions.defaults());
        assertThat(now.stage()).as("another card of the same host still needs its own setup")
                .isEqualTo(PassthroughStatus.Stage.NEEDS_CHANGES);
        assertThat(ctx.passthrough().status(ctx.hosts().read(pve3090, (h, t, f) -> false), GPU, PlanOptions.defaults())
                .stage()).isEqualTo(PassthroughStatus.Stage.IN_PLACE);
        assertThatThrownBy(() -> chain(second, GPU)).as("the card is the first VM's: not given twice")
                .hasMessageContaining("0000:02:00 is passed through to VM " + vm.id() + " (gpu-lab-01) already");
        assertThat(steps).containsExactly(PassthroughSteps.State.CHECK);
        new GpuAssignments().detach(ctx.sessions().of(demo), vm, GPU);
        steps.clear();
        chain(second, GPU);
        assertThat(steps).as("everything in place: straight to the attach")
                .containsExactly(PassthroughSteps.State.CHECK, PassthroughSteps.State.ATTACH);
    }

    @Test
    void aChainStartedAgainAfterAnApplyGoesOnWithTheRebootWhereTheHostStands() throws Exception {
        // GPUForge applied the plan and was closed before the reboot: the journal and the host say where it stood
        ctx.passthrough().apply(pve3090, GPU, PlanOptions.defaults(), x -> true, ApplyProgress.NONE,
                (h, t, f) -> false).orElseThrow();
        VmRef vm = cloneVm("gpu-lab-resumed");
        PassthroughChain.Outcome o = chain(vm, GPU);
        assertThat(o.before().stage()).isEqualTo(PassthroughStatus.Stage.CONFIGURED_NOT_REBOOTED);
        assertThat(steps).as("resumed at the reboot, nothing applied twice").containsExactly(
                PassthroughSteps.State.CHECK, PassthroughSteps.State.REBOOT, PassthroughSteps.State.VERIFY,
                PassthroughSteps.State.ATTACH);
        assertThat(o.applied()).isEmpty();
        assertThat(ctx.sessions().of(demo).readConfig(vm).details().hostDevices()).contains(GPU);
    }

    @Test
    void aBlockedGpuStopsTheChainAtTheCheckWithTheFix() throws Exception {
        VmRef vm = cloneVm("gpu-lab-03");
        assertThatThrownBy(() -> chain(vm, PciAddress.parse("0000:04:00.0")))
                .isInstanceOf(PassthroughChain.Stopped.class)
                .hasMessageContaining("blocked").hasMessageContaining("group 23")
                .satisfies(e -> assertThat(((PassthroughChain.Stopped) e).step()).isEqualTo(PassthroughSteps.State.CHECK));
        assertThat(host.commands()).isEmpty();
    }

    @Test
    void aNodeWithRunningGuestsIsNotRebootedAndNothingIsChangedOnIt() throws Exception {
        VmRef busy = cloneVm("busy-01");
        TaskOutcome started = ctx.sessions().of(demo).vmAction(busy, VmAction.START, TaskListener.none(), () -> false);
        assertThat(started.ok()).as(started.status()).isTrue();
        VmRef vm = cloneVm("gpu-lab-04");
        List<PassthroughProposal> shown = new ArrayList<>();
        assertThatThrownBy(() -> chain(vm, GPU, p -> shown.add(p)))
                .isInstanceOf(PassthroughChain.Stopped.class)
                .hasMessageContaining("the plan reboots pve-3090 (Demo lab), and pve-3090 runs busy-01 (VM " + busy.id() + ")")
                .hasMessageContaining("Nothing was changed")
                .satisfies(e -> assertThat(((PassthroughChain.Stopped) e).step()).isEqualTo(PassthroughSteps.State.CHECK));
        assertThat(shown).as("refused before the plan is offered").isEmpty();
        assertThat(host.commands()).as("no file written, no command run, no reboot").isEmpty();
        assertThat(Files.readString(host.root().resolve("etc/kernel/cmdline"))).doesNotContain("iommu=pt");
    }

    @Test
    void noRebootGoesThroughUnderRunningGuestsWhoeverAsksForIt() throws Exception {
        // the wizard's Reboot page and a rollback's reboot reach the node the same way as the chain
        HostTarget pve4090 = new HostTarget.Linked(demo, "pve-4090");
        SimHost other = ctx.demoLab().host("pve-4090").orElseThrow();
        String before = ctx.passthrough().reboots(ctx.sessions()).bootId(pve4090, (h, t, f) -> false);
        assertThatThrownBy(() -> ctx.passthrough().reboots(ctx.sessions()).reboot(pve4090, (p, w, d) -> { },
                () -> false, (h, t, f) -> false)).isInstanceOf(HostException.class)
                .hasMessageContaining("pve-4090 runs train-01 (VM 101): GPUForge does not reboot a node under running"
                        + " guests").hasMessageContaining("Shut them down or migrate them");
        assertThat(other.commands()).isEmpty();
        assertThat(ctx.passthrough().reboots(ctx.sessions()).bootId(pve4090, (h, t, f) -> false)).isEqualTo(before);
    }

    @Test
    void aVmChangedAfterThePlanWasConfirmedIsNotWritten() throws Exception {
        VmRef vm = cloneVm("gpu-lab-05");
        List<PassthroughProposal> shown = new ArrayList<>();
        assertThatThrownBy(() -> chain(vm, GPU, p -> {
            shown.add(p);
            try { // someone edits the VM while the host is set up
                ctx.sessions().of(demo).writeConfig(vm, new ConfigChange.Settings(Map.of("description",
                        Optional.of("edited meanwhile"))), ctx.sessions().of(demo).readConfig(vm).version());
            } catch (BackendException e) {
                throw new IllegalStateException(e);
            }
            return true;
        })).isInstanceOf(PassthroughChain.Stopped.class).hasMessageContaining("changed after the plan was shown")
                .hasMessageContaining("nothing was written to it")
                .satisfies(e -> assertThat(((PassthroughChain.Stopped) e).step()).isEqualTo(PassthroughSteps.State.ATTACH));
        assertThat(shown).singleElement().satisfies(p -> assertThat(p.vmChanges())
                .contains("hostpci0: mapping=gpu-pve-3090-02-00,pcie=1"));
        assertThat(ctx.sessions().of(demo).readConfig(vm).details().hostDevices()).isEmpty();
    }

    @Test
    void appliedPlansAreTheHostsHistoryAndRollBackNewestFirst() throws Exception {
        PassthroughService p = ctx.passthrough();
        p.apply(pve3090, GPU, PlanOptions.defaults(), x -> true, ApplyProgress.NONE, (h, t, f) -> false).orElseThrow();
        Thread.sleep(1100); // journal ids carry the time to the second
        p.apply(pve3090, PciAddress.parse("0000:03:00.0"), PlanOptions.defaults(), x -> true, ApplyProgress.NONE,
                (h, t, f) -> false).orElseThrow();
        PlanHistory.History h = p.history().list(pve3090, (a, b, c) -> false);
        assertThat(h.ignored()).isEmpty();
        assertThat(h.plans()).hasSize(2);
        PlanHistory.AppliedPlan newest = h.plans().get(0);
        PlanHistory.AppliedPlan oldest = h.plans().get(1);
        assertThat(newest.functions()).contains(PciAddress.parse("0000:03:00.0"));
        assertThat(newest.current()).isTrue();
        assertThat(oldest.functions()).contains(GPU);
        assertThat(oldest.files()).contains("/etc/kernel/cmdline");
        assertThat(h.cannotRollBack(oldest.id())).get().asString().contains("roll back " + newest.id() + " first");

        assertThatThrownBy(() -> p.history().rollback(pve3090, oldest.id(), ApplyProgress.NONE, (a, b, c) -> false))
                .hasMessageContaining("Nothing was changed");
        assertThat(p.history().rollback(pve3090, newest.id(), ApplyProgress.NONE, (a, b, c) -> false).status())
                .isEqualTo(ApplyOutcome.Status.ROLLED_BACK);

        List<PassthroughPlan.FileEdit> back = p.history().diffBack(pve3090, oldest.id(), (a, b, c) -> false);
        assertThat(back).anySatisfy(e -> {
            assertThat(e.path()).isEqualTo("/etc/kernel/cmdline");
            assertThat(e.before().orElseThrow()).contains("iommu=pt");
            assertThat(e.after()).doesNotContain("iommu=pt");
        });
        assertThat(p.history().rollback(pve3090, oldest.id(), ApplyProgress.NONE, (a, b, c) -> false).status())
                .isEqualTo(ApplyOutcome.Status.ROLLED_BACK);
        assertThat(p.history().list(pve3090, (a, b, c) -> false).plans()).allMatch(x -> x.state() == JournalState.ROLLED_BACK);
        assertThat(p.verifyRollback(pve3090, oldest.id(), (a, b, c) -> false).ok()).as("the running host never had it")
                .isTrue();
        assertThat(Files.readString(host.root().resolve("etc/kernel/cmdline"))).doesNotContain("iommu=pt");
    }
}
