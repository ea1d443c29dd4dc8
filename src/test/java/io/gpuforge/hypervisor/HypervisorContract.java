package io.gpuforge.hypervisor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;

import io.gpuforge.domain.BackendException;
import io.gpuforge.domain.Capability;
import io.gpuforge.domain.vm.ChangeEvent;
import io.gpuforge.domain.vm.CloneRequest;
import io.gpuforge.domain.ClusterInventory;
import io.gpuforge.domain.passthrough.ConfigChange;
import io.gpuforge.domain.vm.GpuAttachRequest;
import io.gpuforge.domain.vm.GpuAttachResult;
import io.gpuforge.domain.vm.GuestExecResult;
import io.gpuforge.domain.telemetry.NodeHistory;
import io.gpuforge.domain.pci.NodePci;
import io.gpuforge.domain.pci.PciAddress;
import io.gpuforge.domain.tasks.TaskListener;
import io.gpuforge.domain.tasks.TaskOutcome;
import io.gpuforge.domain.vm.VmAction;
import io.gpuforge.domain.vm.VmConfig;
import io.gpuforge.domain.vm.VmInfo;
import io.gpuforge.domain.vm.VmRef;
import io.gpuforge.domain.vm.VmSpec;
import io.gpuforge.domain.vm.VmState;
import io.gpuforge.testing.Eventually;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What every {@link Hypervisor} backend does, the same way: the checklist a backend passes. A subclass opens a
 * backend over real parts (the Proxmox simulator, libvirt's test driver, a real libvirtd) and names what the
 * fixture holds. A capability the backend does not declare must be refused with
 * {@link BackendException.Kind#UNSUPPORTED}; a declared one must work.
 */
public abstract class HypervisorContract {

    /**
     * What the backend under test holds for the checks: a stopped VM on {@code node} (required), a running VM, a
     * template, the functions of a GPU no VM uses, and a running VM whose QEMU guest agent answers.
     */
    protected record Fixture(Hypervisor hypervisor, String node, VmRef stoppedVm, Optional<VmRef> runningVm,
                             Optional<VmRef> template, Optional<List<PciAddress>> freeGpuFunctions,
                             Optional<VmRef> agentVm) {
    }

    protected static final Duration TASK_TIMEOUT = Duration.ofSeconds(60);

    protected Fixture f;
    protected Hypervisor h;
    private final List<VmRef> created = new ArrayList<>();

    /** Opens the backend over its real part, with a stopped VM on {@code node} at least. */
    protected abstract Fixture open() throws Exception;

    /** Releases what {@link #open} started (servers, temp files); the hypervisor is closed already. */
    protected void release() throws Exception {
    }

    @BeforeEach
    final void openFixture() throws Exception {
        f = open();
        h = f.hypervisor();
    }

    @AfterEach
    final void closeFixture() throws Exception {
        if (h == null) {
            release(); // open() skipped (a missing part) or failed: release what it had started
            return;
        }
        try {
            for (VmRef vm : created) {
                try {
                    h.vmAction(vm, VmAction.STOP).await(TaskListener.none(), () -> false, TASK_TIMEOUT);
                } catch (BackendException e) {
                    // not running
                }
                try {
                    h.deleteVm(vm).await(TaskListener.none(), () -> false, TASK_TIMEOUT);
                } catch (BackendException e) {
                    // best effort: the next run uses new names
                }
            }
            h.close();
        } finally {
            release();
        }
    }

    /** Remembers a VM the test made, so it is removed afterwards. */
    protected VmRef made(VmRef vm) {
        created.add(vm);
        return vm;
    }

    protected static TaskOutcome finish(BackendTask t) throws Exception {
        return t.await(TaskListener.none(), () -> false, TASK_TIMEOUT);
    }

    protected VmInfo vm(VmRef ref) throws Exception {
        return h.inventory().vm(ref).orElseThrow(() -> new AssertionError(ref + " is not in the inventory"));
    }

    @Test
    void everyCapabilityNotDeclaredIsRefusedAsUnsupported() throws Exception {
        VmRef vm = f.stoppedVm();
        for (Capability c : Capability.values()) {
            if (h.can(c)) {
                continue;
            }
            BackendCall call = callFor(c, vm);
            if (call == null) {
                continue;
            }
            assertThatThrownBy(call::run).as("%s is not declared", c).isInstanceOfSatisfying(BackendException.class,
                    e -> assertThat(e.kind()).isEqualTo(BackendException.Kind.UNSUPPORTED));
        }
    }

    private BackendCall callFor(Capability c, VmRef vm) {
        switch (c) {
            case NODE_REBOOT:
                return () -> h.rebootNode(f.node());
            case VM_DELETE:
                return () -> h.deleteVm(vm);
            case TEMPLATES:
                return () -> h.convertToTemplate(vm);
            case CLONE:
                return () -> h.cloneVm(new CloneRequest(vm, "gf-contract-clone", Optional.empty(), true, Optional.empty()));
            case CREATE_VM:
                return () -> h.createVm(f.node(), spec("gf-contract-refused"));
            case GUEST_EXEC:
                return () -> h.guestExec(vm, List.of("true"), Duration.ofSeconds(5));
            case GUEST_FILE_WRITE:
                return () -> h.guestFileWrite(vm, "/tmp/gf-contract-refused", new byte[] {1});
            case CHANGE_FEED:
                return () -> h.watch(e -> { }).close();
            case NODE_HISTORY:
                return () -> h.nodeHistory(f.node(), NodeHistory.Timeframe.HOUR);
            case VM_CONFIG_SETTINGS:
                return () -> h.writeConfig(vm, new ConfigChange.Settings(Map.of("cores", Optional.of("2"))),
                        h.readConfig(vm).version());
            case VM_CONFIG_DOCUMENT:
                return () -> h.writeConfig(vm, new ConfigChange.Document(h.readConfig(vm).document()),
                        h.readConfig(vm).version());
            default:
                return null;
        }
    }

    @FunctionalInterface
    private interface BackendCall {
        void run() throws Exception;
    }

    protected static VmSpec spec(String name) {
        return new VmSpec(name, 1, 256, Optional.empty(), VmSpec.USER_NETWORK, Optional.empty(), List.of(), true, false);
    }

    @Test
    void theInventoryListsTheNodeItsVmsWithTheirStateAndItsGpus() throws Exception {
        assertThat(h.can(Capability.INVENTORY)).isTrue();
        ClusterInventory inv = h.inventory();
        assertThat(inv.backendVersion()).isNotBlank();
        assertThat(inv.nodes()).extracting(n -> n.name()).contains(f.node());
        assertThat(vm(f.stoppedVm()).state()).isEqualTo(VmState.STOPPED);
        assertThat(vm(f.stoppedVm()).template()).isFalse();
        if (f.runningVm().isPresent()) {
            assertThat(vm(f.runningVm().get()).state()).isEqualTo(VmState.RUNNING);
        }
        if (f.template().isPresent()) {
            assertThat(vm(f.template().get()).template()).isTrue();
            assertThat(inv.templates()).extracting(VmInfo::ref).contains(f.template().get());
        }
        if (f.freeGpuFunctions().isPresent()) {
            PciAddress gpu = f.freeGpuFunctions().get().get(0);
            assertThat(inv.gpusOn(f.node())).anySatisfy(g -> {
                assertThat(g.address()).isEqualTo(gpu);
                assertThat(g.assignedTo()).isEmpty();
            });
        }
        // every VM is on a node the inventory lists
        assertThat(inv.vms()).allSatisfy(v -> assertThat(inv.nodes()).extracting(n -> n.name()).contains(v.ref().node()));
    }

    @Test
    void aNodesPciDevicesComeWithTheirIommuGroups() throws Exception {
        assumeThat(h.can(Capability.NODE_PCI)).isTrue();
        NodePci pci = h.nodePci(f.node());
        assertThat(pci.node()).isEqualTo(f.node());
        assertThat(pci.inventory().devices()).isNotEmpty();
        if (f.freeGpuFunctions().isPresent()) {
            PciAddress gpu = f.freeGpuFunctions().get().get(0);
            assertThat(pci.inventory().device(gpu)).hasValueSatisfying(d -> assertThat(d.isGpu()).isTrue());
            assertThat(pci.inventory().gpus()).anySatisfy(p -> assertThat(p.address()).isEqualTo(gpu));
        }
    }

    @Test
    void aNodeStatusNamesTheNode() throws Exception {
        assumeThat(h.can(Capability.NODE_STATUS)).isTrue();
        assertThat(h.nodeStatus(f.node()).node()).isEqualTo(f.node());
    }

    @Test
    void aNodesHistoryIsOldestFirstWithCpuMemoryAndNetwork() throws Exception {
        assumeThat(h.can(Capability.NODE_HISTORY)).isTrue();
        NodeHistory history = h.nodeHistory(f.node(), NodeHistory.Timeframe.HOUR);
        assertThat(history.node()).isEqualTo(f.node());
        assertThat(history.timeframe()).isEqualTo(NodeHistory.Timeframe.HOUR);
        assertThat(history.points()).hasSizeGreaterThan(1);
        assertThat(history.points()).extracting(NodeHistory.Point::time).isSorted();
        assertThat(history.points()).allSatisfy(p -> {
            assertThat(p.cpu()).isPresent();
            assertThat(p.memoryTotalBytes()).isPresent();
            assertThat(p.netIn()).isPresent();
        });
    }

    @Test
    void anUnknownVmIsNotFound() {
        VmRef none = new VmRef(f.node(), h.kind().startsWith("Proxmox") ? "99999" : "gf-no-such-vm");
        assertThatThrownBy(() -> h.readConfig(none)).isInstanceOfSatisfying(BackendException.class,
                e -> assertThat(e.kind()).isEqualTo(BackendException.Kind.NOT_FOUND));
    }

    @Test
    void aStoppedVmStartsAndStops() throws Exception {
        assumeThat(h.can(Capability.VM_LIFECYCLE)).isTrue();
        VmRef vm = f.stoppedVm();
        TaskOutcome start = finish(h.vmAction(vm, VmAction.START));
        assertThat(start.ok()).as(start.status()).isTrue();
        waitFor(() -> stateOf(vm) == VmState.RUNNING);
        TaskOutcome stop = finish(h.vmAction(vm, VmAction.STOP));
        assertThat(stop.ok()).as(stop.status()).isTrue();
        waitFor(() -> stateOf(vm) == VmState.STOPPED);
    }

    /**
     * Whether a running VM of this backend's fixture stops when asked to shut down (its guest answers ACPI). A
     * backend whose fixture guest cannot (no operating system to answer) declares it, and the check is then that the
     * request is accepted and a stop afterwards ends the VM.
     */
    protected boolean guestAnswersShutdown() {
        return true;
    }

    @Test
    void aRunningVmShutsDownAndIsStoppedAfterwards() throws Exception {
        assumeThat(h.can(Capability.VM_LIFECYCLE)).isTrue();
        VmRef vm = f.stoppedVm();
        assertThat(finish(h.vmAction(vm, VmAction.START)).ok()).isTrue();
        waitFor(() -> stateOf(vm) == VmState.RUNNING);
        TaskOutcome shutdown = finish(h.vmAction(vm, VmAction.SHUTDOWN));
        assertThat(shutdown.ok()).as(shutdown.status()).isTrue();
        if (guestAnswersShutdown()) {
            waitFor(() -> stateOf(vm) == VmState.STOPPED);
        } else {
            // asked, not forced: whether it stops is the guest's business; a stop then ends it
            assertThat(finish(h.vmAction(vm, VmAction.STOP)).ok()).isTrue();
            waitFor(() -> stateOf(vm) == VmState.STOPPED);
        }
    }

    @Test
    void aRebootedVmIsRunningAfterwards() throws Exception {
        assumeThat(h.can(Capability.VM_LIFECYCLE)).isTrue();
        VmRef vm = f.stoppedVm();
        assertThat(finish(h.vmAction(vm, VmAction.START)).ok()).isTrue();
        waitFor(() -> stateOf(vm) == VmState.RUNNING);
        TaskOutcome reboot = finish(h.vmAction(vm, VmAction.REBOOT));
        assertThat(reboot.ok()).as(reboot.status()).isTrue();
        waitFor(() -> stateOf(vm) == VmState.RUNNING);
        assertThat(finish(h.vmAction(vm, VmAction.STOP)).ok()).isTrue();
        waitFor(() -> stateOf(vm) == VmState.STOPPED);
    }

    @Test
    void aTasksLogHoldsTheLinesTheBackendWroteEachToldOnce() throws Exception {
        assumeThat(h.can(Capability.VM_LIFECYCLE)).isTrue();
        List<String> heard = new CopyOnWriteArrayList<>();
        TaskOutcome start = h.vmAction(f.stoppedVm(), VmAction.START).await(heard::add, () -> false, TASK_TIMEOUT);
        assertThat(start.ok()).as(start.status()).isTrue();
        assertThat(start.log()).as("the backend says what it did").isNotEmpty().allMatch(l -> !l.isBlank());
        assertThat(heard).as("the listener heard the log's lines, in order, once each").isEqualTo(start.log());
        TaskOutcome stop = h.vmAction(f.stoppedVm(), VmAction.STOP).await(TaskListener.none(), () -> false,
                TASK_TIMEOUT);
        assertThat(stop.log()).as("a task's log is its own").isNotEmpty().isNotEqualTo(start.log());
    }

    private VmState stateOf(VmRef vm) {
        try {
            return vm(vm).state();
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void aConfigurationIsReadWithItsVersionAndWrittenAgainstIt() throws Exception {
        assumeThat(h.can(Capability.VM_CONFIG)).isTrue();
        VmConfig before = h.readConfig(f.stoppedVm());
        assertThat(before.version()).isNotBlank();
        assertThat(before.document()).isNotBlank();
        int cores = before.details().cores() == 2 ? 3 : 2;
        VmConfig after = h.writeConfig(f.stoppedVm(), new ConfigChange.Resources(OptionalInt.of(cores),
                OptionalLong.empty(), Optional.empty()), before.version());
        assertThat(after.details().vcpus()).isEqualTo(cores);
        assertThat(after.version()).isNotEqualTo(before.version());
        assertThat(h.readConfig(f.stoppedVm()).details().vcpus()).isEqualTo(cores);
    }

    @Test
    void aWriteBasedOnAStaleVersionIsAConflictAndChangesNothing() throws Exception {
        assumeThat(h.can(Capability.VM_CONFIG)).isTrue();
        VmConfig first = h.readConfig(f.stoppedVm());
        int cores = first.details().cores() == 2 ? 3 : 2;
        h.writeConfig(f.stoppedVm(), new ConfigChange.Resources(OptionalInt.of(cores), OptionalLong.empty(),
                Optional.empty()), first.version());
        assertThatThrownBy(() -> h.writeConfig(f.stoppedVm(), new ConfigChange.Resources(OptionalInt.of(cores + 1),
                OptionalLong.empty(), Optional.empty()), first.version()))
                .isInstanceOfSatisfying(BackendException.class,
                        e -> assertThat(e.kind()).isEqualTo(BackendException.Kind.CONFLICT));
        assertThat(h.readConfig(f.stoppedVm()).details().vcpus()).isEqualTo(cores);
    }

    @Test
    void aGpuIsAttachedWithEveryFunctionAndDetachedAgain() throws Exception {
        assumeThat(h.can(Capability.GPU_ATTACH)).isTrue();
        assumeThat(f.freeGpuFunctions()).isPresent();
        List<PciAddress> functions = f.freeGpuFunctions().get();
        VmConfig before = h.readConfig(f.stoppedVm());
        GpuAttachRequest request = new GpuAttachRequest(f.stoppedVm(), functions, false, Optional.empty(),
                Optional.empty(), before.version());
        GpuAttachResult preview = h.previewGpuAttach(request);
        assertThat(h.readConfig(f.stoppedVm()).version()).as("a preview writes nothing").isEqualTo(before.version());
        GpuAttachResult attached = h.attachGpu(request);
        assertThat(attached.changes()).isNotEmpty().as("the preview is the attach").isEqualTo(preview.changes());
        VmConfig with = h.readConfig(f.stoppedVm());
        assertThat(with.details().hostDevices()).containsAll(functions);
        assertThat(with.details().isQ35()).isTrue();
        assertThat(h.inventory().gpusOn(f.node())).filteredOn(g -> g.address().equals(functions.get(0)))
                .allSatisfy(g -> assertThat(g.assignedTo()).contains(f.stoppedVm()));
        GpuAttachResult detached = h.detachGpu(f.stoppedVm(), functions.get(0), with.version());
        assertThat(detached.changes()).isNotEmpty();
        assertThat(h.readConfig(f.stoppedVm()).details().hostDevices()).doesNotContainAnyElementsOf(functions);
    }

    @Test
    void anAttachBasedOnAStaleVersionIsAConflict() throws Exception {
        assumeThat(h.can(Capability.GPU_ATTACH)).isTrue();
        assumeThat(f.freeGpuFunctions()).isPresent();
        VmConfig first = h.readConfig(f.stoppedVm());
        h.writeConfig(f.stoppedVm(), new ConfigChange.Resources(OptionalInt.of(first.details().cores() == 2 ? 3 : 2),
                OptionalLong.empty(), Optional.empty()), first.version());
        assertThatThrownBy(() -> h.attachGpu(new GpuAttachRequest(f.stoppedVm(), f.freeGpuFunctions().get(), false,
                Optional.empty(), Optional.empty(), first.version())))
                .isInstanceOfSatisfying(BackendException.class,
                        e -> assertThat(e.kind()).isEqualTo(BackendException.Kind.CONFLICT));
        assertThat(h.readConfig(f.stoppedVm()).details().hostDevices())
                .doesNotContainAnyElementsOf(f.freeGpuFunctions().get());
    }

    @Test
    void aTemplateIsClonedIntoANewVmThatCanBeDeleted() throws Exception {
        assumeThat(h.can(Capability.CLONE)).isTrue();
        VmRef source = f.template().orElse(f.stoppedVm());
        String name = "gf-clone-" + Long.toHexString(System.nanoTime() & 0xffffff);
        TaskOutcome out = finish(h.cloneVm(new CloneRequest(source, name, Optional.empty(), true, Optional.empty())));
        assertThat(out.ok()).as(out.status()).isTrue();
        VmRef clone = made(out.created().orElseThrow(() -> new AssertionError("the clone's outcome names no VM")));
        assertThat(vm(clone).name()).isEqualTo(name);
        assertThat(vm(clone).template()).isFalse();
        assumeThat(h.can(Capability.VM_DELETE)).isTrue();
        assertThat(finish(h.deleteVm(clone)).ok()).isTrue();
        assertThat(h.inventory().vm(clone)).isEmpty();
    }

    @Test
    void aVmIsCreatedFromASpecAndDeleted() throws Exception {
        assumeThat(h.can(Capability.CREATE_VM)).isTrue();
        String name = "gf-new-" + Long.toHexString(System.nanoTime() & 0xffffff);
        TaskOutcome out = finish(h.createVm(f.node(), spec(name)));
        assertThat(out.ok()).as(out.status()).isTrue();
        VmRef vm = made(out.created().orElseThrow(() -> new AssertionError("the create's outcome names no VM")));
        VmInfo info = vm(vm);
        assertThat(info.name()).isEqualTo(name);
        assertThat(info.state()).isEqualTo(VmState.STOPPED);
        assertThat(h.readConfig(vm).details().memoryBytes()).isEqualTo(256L << 20);
        assumeThat(h.can(Capability.VM_DELETE)).isTrue();
        assertThat(finish(h.deleteVm(vm)).ok()).isTrue();
        assertThat(h.inventory().vm(vm)).isEmpty();
    }

    @Test
    void aVmBecomesATemplate() throws Exception {
        assumeThat(h.can(Capability.TEMPLATES)).isTrue();
        assumeThat(h.can(Capability.CREATE_VM)).isTrue();
        VmRef vm = made(finish(h.createVm(f.node(), spec("gf-tpl-" + Long.toHexString(System.nanoTime() & 0xffffff))))
                .created().orElseThrow());
        assertThat(finish(h.convertToTemplate(vm)).ok()).isTrue();
        assertThat(vm(vm).template()).isTrue();
    }

    @Test
    void aStartArrivesOnTheChangeFeed() throws Exception {
        assumeThat(h.can(Capability.CHANGE_FEED)).isTrue();
        assumeThat(h.can(Capability.VM_LIFECYCLE)).isTrue();
        List<ChangeEvent> events = new CopyOnWriteArrayList<>();
        try (Hypervisor.Subscription s = h.watch(events::add)) {
            finish(h.vmAction(f.stoppedVm(), VmAction.START));
            waitFor(() -> events.stream().anyMatch(e -> e.kind() == ChangeEvent.Kind.INVENTORY
                    || e.vm().map(f.stoppedVm()::equals).orElse(false)));
        }
        int seen = events.size();
        finish(h.vmAction(f.stoppedVm(), VmAction.STOP));
        TimeUnit.MILLISECONDS.sleep(500);
        assertThat(events).as("nothing arrives after the subscription is closed").hasSize(seen);
    }

    @Test
    void aCancelledTaskStopsAndSaysSo() throws Exception {
        assumeThat(h.can(Capability.TASK_CANCEL)).isTrue();
        BackendTask t = h.vmAction(f.stoppedVm(), VmAction.START);
        BooleanSupplier cancelNow = () -> true;
        TaskOutcome out = t.await(TaskListener.none(), cancelNow, TASK_TIMEOUT);
        assertThat(out.ok()).isFalse();
        assertThat(out.status()).contains("cancel");
    }

    @Test
    void aCommandRunsInsideARunningVm() throws Exception {
        assumeThat(h.can(Capability.GUEST_EXEC)).isTrue();
        assumeThat(f.agentVm()).as("a running VM whose guest agent answers").isPresent();
        GuestExecResult r = h.guestExec(f.agentVm().get(), List.of("nvidia-smi", "--query-gpu=name",
                "--format=csv,noheader"), Duration.ofSeconds(20));
        assertThat(r.exited()).isTrue();
        assertThat(r.exitCode()).isPresent();
    }

    @Test
    void aCommandInAStoppedVmIsRefusedWithAReason() {
        assumeThat(h.can(Capability.GUEST_EXEC)).isTrue();
        assertThatThrownBy(() -> h.guestExec(f.stoppedVm(), List.of("true"), Duration.ofSeconds(5)))
                .isInstanceOfSatisfying(BackendException.class, e -> assertThat(e.getMessage()).containsIgnoringCase("agent"));
    }

    @Test
    void aFileIsWrittenInsideARunningVmByteForByte() throws Exception {
        assumeThat(h.can(Capability.GUEST_FILE_WRITE)).isTrue();
        assumeThat(f.agentVm()).as("a running VM whose guest agent answers").isPresent();
        String text = "#cloud-config\n# GPUForge contract \u2603\nruncmd: [\"true\"]\n";
        h.guestFileWrite(f.agentVm().get(), "/tmp/gpuforge-contract.yaml", text.getBytes(StandardCharsets.UTF_8));
        GuestExecResult r = h.guestExec(f.agentVm().get(), List.of("cat", "/tmp/gpuforge-contract.yaml"),
                Duration.ofSeconds(20));
        assertThat(r.exitCode()).hasValue(0);
        assertThat(r.stdout()).isEqualTo(text);
    }

    @Test
    void aFileWriteInAStoppedVmIsRefusedWithAReason() {
        assumeThat(h.can(Capability.GUEST_FILE_WRITE)).isTrue();
        assertThatThrownBy(() -> h.guestFileWrite(f.stoppedVm(), "/tmp/x", new byte[] {1}))
                .isInstanceOfSatisfying(BackendException.class, e -> assertThat(e.getMessage()).containsIgnoringCase("agent"));
    }

    @Test
    void closingIsQuickAndLaterCallsFailClearly() throws Exception {
        Thread closer = new Thread(h::close, "contract-close");
        closer.start();
        closer.join(30_000);
        assertThat(closer.isAlive()).as("close() hangs").isFalse();
        assertThatThrownBy(() -> h.inventory()).isInstanceOf(BackendException.class);
    }

    protected static void waitFor(BooleanSupplier condition) throws InterruptedException {
        Eventually.until("the hypervisor's awaited state", Duration.ofSeconds(20), condition);
    }
}
