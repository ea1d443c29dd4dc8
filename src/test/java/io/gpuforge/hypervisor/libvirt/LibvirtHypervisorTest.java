package io.gpuforge.hypervisor.libvirt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpuforge.domain.BackendException;
import io.gpuforge.domain.BackendException.Kind;
import io.gpuforge.domain.vm.ChangeEvent;
import io.gpuforge.domain.ClusterInventory;
import io.gpuforge.domain.passthrough.ConfigChange;
import io.gpuforge.domain.vm.GpuAttachRequest;
import io.gpuforge.domain.vm.GpuAttachResult;
import io.gpuforge.domain.NodeStatus;
import io.gpuforge.domain.pci.PciAddress;
import io.gpuforge.domain.tasks.TaskListener;
import io.gpuforge.domain.tasks.TaskOutcome;
import io.gpuforge.domain.vm.VmAction;
import io.gpuforge.domain.vm.VmConfig;
import io.gpuforge.domain.vm.VmRef;
import io.gpuforge.hypervisor.BackendTask;
import io.gpuforge.hypervisor.Hypervisor;
import io.gpuforge.testing.Eventually;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the libvirt backend does beyond the contract, on libvirt's test driver ({@link TestDriverHost}). */
class LibvirtHypervisorTest {

    private static final PciAddress RTX_3060 = PciAddress.parse("0000:02:00.0");
    private static final List<PciAddress> GT_1030 = List.of(PciAddress.parse("0000:01:00.0"), PciAddress.parse("0000:01:00.1"));

    @TempDir
    Path dir;
    private LibvirtHypervisor h;
    private String host;
    private VmRef stopped;
    private VmRef win10;

    @BeforeEach
    void open() throws Exception {
        h = TestDriverHost.open(TestDriverHost.uri(dir));
        host = h.inventory().name();
        stopped = new VmRef(host, TestDriverHost.STOPPED);
        win10 = new VmRef(host, "win10-gpu");
    }

    @AfterEach
    void close() {
        h.close();
    }

    private static TaskOutcome finish(BackendTask t) throws Exception {
        return t.await(TaskListener.none(), () -> false, Duration.ofSeconds(30));
    }

    private VmConfig document(VmRef vm, String from, String to) throws Exception {
        VmConfig c = h.readConfig(vm);
        assertThat(c.document()).contains(from);
        return h.writeConfig(vm, new ConfigChange.Document(c.document().replace(from, to)), c.version());
    }

    @Test
    void gpusAreTheDisplayClassDevicesWithTheVmThatHoldsThem() throws Exception {
        ClusterInventory inv = h.inventory();
        assertThat(inv.backendVersion()).startsWith("libvirt ");
        assertThat(inv.nodes()).singleElement().satisfies(n -> {
            assertThat(n.cpus()).isEqualTo(12);
            assertThat(n.memoryBytes()).isEqualTo(32L << 30);
        });
        assertThat(inv.gpus()).extracting(g -> g.address().toString())
                .containsExactly("0000:01:00.0", "0000:02:00.0", "0000:82:00.0");
        assertThat(inv.gpus()).filteredOn(g -> g.address().equals(RTX_3060)).singleElement().satisfies(g -> {
            assertThat(g.assignedTo()).contains(win10);
            assertThat(g.ids()).contains("10de:2504");
            assertThat(g.name()).contains("RTX 3060");
            assertThat(g.iommuGroup()).hasValue(19);
        });
        assertThat(inv.gpus()).filteredOn(g -> !g.address().equals(RTX_3060)).allSatisfy(g -> assertThat(g.assignedTo()).isEmpty());
        NodeStatus status = h.nodeStatus(host);
        assertThat(status.version()).hasValueSatisfying(v -> assertThat(v).startsWith("libvirt "));
        assertThat(status.memoryTotalBytes()).hasValue(32L << 30);
    }

    @Test
    void aVmOnAnotherNodeIsNotFound() {
        assertThatThrownBy(() -> h.readConfig(new VmRef("elsewhere", TestDriverHost.STOPPED)))
                .isInstanceOfSatisfying(BackendException.class, e -> {
                    assertThat(e.kind()).isEqualTo(Kind.NOT_FOUND);
                    assertThat(e.getMessage()).contains(host);
                });
        assertThatThrownBy(() -> h.nodePci("elsewhere")).isInstanceOfSatisfying(BackendException.class,
                e -> assertThat(e.kind()).isEqualTo(Kind.NOT_FOUND));
    }

    @Test
    void startingARunningVmIsRefusedInLibvirtsWords() {
        // (the test driver calls it an internal error; QEMU's driver an invalid operation: LibvirtDaemonGuestAgentTest)
        assertThatThrownBy(() -> h.vmAction(win10, VmAction.START)).isInstanceOfSatisfying(BackendException.class,
                e -> assertThat(e.getMessage()).startsWith("libvirt could not start win10-gpu: ").contains("already running"));
    }

    @Test
    void memoryChangesSetMemoryAndCurrentMemory() throws Exception {
        VmConfig c = h.readConfig(stopped);
        VmConfig after = h.writeConfig(stopped, new ConfigChange.Resources(OptionalInt.empty(), OptionalLong.of(2048),
                Optional.empty()), c.version());
        assertThat(after.details().memoryBytes()).isEqualTo(2048L << 20);
        assertThat(Xml.text(Xml.parse(after.document()), "currentMemory")).contains(Long.toString(2048L * 1024));
        assertThat(after.details().vcpus()).isEqualTo(4);
    }

    @Test
    void aRenameSaysHowToDoItAndChangesNothing() throws Exception {
        VmConfig c = h.readConfig(stopped);
        assertThatThrownBy(() -> h.writeConfig(stopped, new ConfigChange.Resources(OptionalInt.of(2), OptionalLong.empty(),
                Optional.of("lab-renamed")), c.version())).isInstanceOfSatisfying(BackendException.class, e -> {
                    assertThat(e.kind()).isEqualTo(Kind.UNSUPPORTED);
                    assertThat(e.getMessage()).contains("virsh domrename lab-stopped lab-renamed");
                });
        assertThat(h.readConfig(stopped).version()).isEqualTo(c.version());
        // the name it already has is no rename
        assertThat(h.writeConfig(stopped, new ConfigChange.Resources(OptionalInt.of(2), OptionalLong.empty(),
                Optional.of(TestDriverHost.STOPPED)), c.version()).details().vcpus()).isEqualTo(2);
    }

    @Test
    void aCpuTopologyFollowsTheNewCount() throws Exception {
        document(stopped, "<vcpu placement='static'>4</vcpu>", "<vcpu placement='static'>8</vcpu>"
                + "<cpu><topology sockets='2' dies='1' cores='2' threads='2'/></cpu>");
        VmConfig four = h.writeConfig(stopped, new ConfigChange.Resources(OptionalInt.of(4), OptionalLong.empty(),
                Optional.empty()), h.readConfig(stopped).version());
        assertThat(four.details().vcpus()).isEqualTo(4);
        assertThat(four.document()).contains("sockets='2'").contains("cores='1'").contains("threads='2'");
        VmConfig three = h.writeConfig(stopped, new ConfigChange.Resources(OptionalInt.of(3), OptionalLong.empty(),
                Optional.empty()), four.version());
        assertThat(three.details().vcpus()).isEqualTo(3);
        assertThat(three.document()).contains("sockets='1'").contains("cores='3'").contains("threads='1'");
    }

    @Test
    void memorySetPerNumaCellIsNotChangedBehindTheCellsBack() throws Exception {
        VmConfig numa = document(stopped, "<vcpu placement='static'>4</vcpu>", "<vcpu placement='static'>4</vcpu>"
                + "<cpu><numa><cell id='0' cpus='0-3' memory='4194304' unit='KiB'/></numa></cpu>");
        assertThatThrownBy(() -> h.writeConfig(stopped, new ConfigChange.Resources(OptionalInt.empty(),
                OptionalLong.of(2048), Optional.empty()), numa.version())).isInstanceOfSatisfying(BackendException.class, e -> {
                    assertThat(e.kind()).isEqualTo(Kind.INVALID);
                    assertThat(e.getMessage()).contains("NUMA");
                });
        assertThat(h.readConfig(stopped).version()).isEqualTo(numa.version());
    }

    @Test
    void aDocumentIsForTheSameDomainAndKeepsItsUuid() throws Exception {
        VmConfig c = h.readConfig(stopped);
        String uuid = Xml.text(Xml.parse(c.document()), "uuid").orElseThrow();
        assertThatThrownBy(() -> h.writeConfig(stopped, new ConfigChange.Document(c.document()
                .replace("<name>lab-stopped</name>", "<name>other</name>")), c.version()))
                .isInstanceOfSatisfying(BackendException.class, e -> {
                    assertThat(e.kind()).isEqualTo(Kind.INVALID);
                    assertThat(e.getMessage()).contains("'other'");
                });
        assertThatThrownBy(() -> h.writeConfig(stopped, new ConfigChange.Document(c.document().replace(uuid,
                "6a0c6a3e-0000-4000-8000-000000000001")), c.version())).isInstanceOfSatisfying(BackendException.class,
                        e -> assertThat(e.getMessage()).contains("UUID"));
        VmConfig without = h.writeConfig(stopped, new ConfigChange.Document(c.document()
                .replace("<uuid>" + uuid + "</uuid>", "").replace("<vcpu placement='static'>4", "<vcpu placement='static'>2")),
                c.version());
        assertThat(Xml.text(Xml.parse(without.document()), "uuid")).contains(uuid);
        assertThat(without.details().vcpus()).isEqualTo(2);
        assertThatThrownBy(() -> h.writeConfig(stopped, new ConfigChange.Document("<domain"), without.version()))
                .isInstanceOfSatisfying(BackendException.class, e -> assertThat(e.getMessage()).contains("XML"));
    }

    @Test
    void attachingTwice_twoCards_orACardThatIsNotThereIsRefused() throws Exception {
        VmConfig c = h.readConfig(stopped);
        assertThatThrownBy(() -> h.attachGpu(new GpuAttachRequest(stopped, List.of(GT_1030.get(0), RTX_3060), false,
                Optional.empty(), Optional.empty(), c.version()))).isInstanceOfSatisfying(BackendException.class,
                        e -> assertThat(e.getMessage()).contains("more than one card"));
        VmConfig with = h.attachGpu(new GpuAttachRequest(stopped, GT_1030, false, Optional.empty(), Optional.empty(),
                c.version())).after();
        assertThatThrownBy(() -> h.attachGpu(new GpuAttachRequest(stopped, GT_1030, false, Optional.empty(),
                Optional.empty(), with.version()))).isInstanceOfSatisfying(BackendException.class, e -> {
                    assertThat(e.kind()).isEqualTo(Kind.INVALID);
                    assertThat(e.getMessage()).contains("already");
                });
        assertThatThrownBy(() -> h.detachGpu(stopped, RTX_3060, with.version()))
                .isInstanceOfSatisfying(BackendException.class, e -> assertThat(e.getMessage()).contains("0000:02:00"));
    }

    @Test
    void aGpuForARunningVmOrOneAnotherVmHoldsComesWithWhatThatMeans() throws Exception {
        GpuAttachResult r = h.attachGpu(new GpuAttachRequest(win10, GT_1030, true, Optional.empty(), Optional.empty(),
                h.readConfig(win10).version()));
        assertThat(r.changes()).anySatisfy(x -> assertThat(x).contains("next time it starts"));
        assertThat(r.changes()).anySatisfy(x -> assertThat(x).contains("primary display"));
        GpuAttachResult shared = h.attachGpu(new GpuAttachRequest(stopped, List.of(RTX_3060), false, Optional.empty(),
                Optional.empty(), h.readConfig(stopped).version()));
        assertThat(shared.changes()).anySatisfy(x -> assertThat(x).contains("also given to win10-gpu"));
        assertThat(shared.changes()).noneSatisfy(x -> assertThat(x).contains("multifunction"));
    }

    @Test
    void deletingSaysTheDisksAreKeptAndARunningVmIsNotDeleted() throws Exception {
        assertThatThrownBy(() -> h.deleteVm(win10)).isInstanceOfSatisfying(BackendException.class, e -> {
            assertThat(e.kind()).isEqualTo(Kind.INVALID);
            assertThat(e.getMessage()).contains("stop it");
        });
        document(stopped, "</devices>", "<disk type='file' device='disk'><source file='/var/lib/libvirt/images/lab.qcow2'/>"
                + "<target dev='vda' bus='virtio'/></disk></devices>");
        TaskOutcome out = finish(h.deleteVm(stopped));
        assertThat(out.ok()).isTrue();
        assertThat(out.status()).contains("disks kept");
        assertThat(out.log()).anySatisfy(l -> assertThat(l).contains("/var/lib/libvirt/images/lab.qcow2"));
        assertThat(h.inventory().vm(stopped)).isEmpty();
    }

    @Test
    void aVmNameThatIsTakenIsRefused() {
        assertThatThrownBy(() -> h.createVm(host, HypervisorSpecs.spec("win10-gpu")))
                .isInstanceOfSatisfying(BackendException.class, e -> {
                    assertThat(e.kind()).isEqualTo(Kind.INVALID);
                    assertThat(e.getMessage()).contains("exists");
                });
    }

    @Test
    void theFeedTellsDefinitionsChangesAndRemovals() throws Exception {
        List<ChangeEvent> events = new CopyOnWriteArrayList<>();
        try (Hypervisor.Subscription s = h.watch(events::add)) {
            VmRef created = finish(h.createVm(host, HypervisorSpecs.spec("gf-feed"))).created().orElseThrow();
            VmConfig c = h.readConfig(created);
            h.writeConfig(created, new ConfigChange.Resources(OptionalInt.of(2), OptionalLong.empty(), Optional.empty()),
                    c.version());
            finish(h.deleteVm(created));
            waitFor(() -> events.stream().anyMatch(e -> e.kind() == ChangeEvent.Kind.VM_REMOVED));
            assertThat(events).filteredOn(e -> e.vm().equals(Optional.of(created))).extracting(ChangeEvent::kind)
                    .containsSubsequence(ChangeEvent.Kind.VM_ADDED, ChangeEvent.Kind.VM_CONFIG, ChangeEvent.Kind.VM_REMOVED);
        }
    }

    @Test
    void aClosedBackendIsClosedForTheFeedToo() throws Exception {
        h.watch(e -> { }).close(); // the native listener is registered now
        h.close();
        assertThatThrownBy(() -> h.watch(e -> { })).isInstanceOfSatisfying(BackendException.class,
                e -> assertThat(e.getMessage()).contains("closed"));
    }

    private static void waitFor(BooleanSupplier condition) throws InterruptedException {
        Eventually.until("the libvirt host's awaited state", Duration.ofSeconds(20), condition);
    }
}
