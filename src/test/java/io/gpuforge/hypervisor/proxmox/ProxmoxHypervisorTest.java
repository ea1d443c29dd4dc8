package io.gpuforge.hypervisor.proxmox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpuforge.demo.PveSimulator;
import io.gpuforge.demo.SimCluster;
import io.gpuforge.domain.BackendException;
import io.gpuforge.domain.vm.ChangeEvent;
import io.gpuforge.domain.ClusterInventory;
import io.gpuforge.domain.passthrough.ConfigChange;
import io.gpuforge.domain.connections.ConnectionState;
import io.gpuforge.domain.vm.GpuAttachRequest;
import io.gpuforge.domain.vm.GpuAttachResult;
import io.gpuforge.domain.vm.GuestExecResult;
import io.gpuforge.domain.pci.PciAddress;
import io.gpuforge.domain.tasks.TaskListener;
import io.gpuforge.domain.vm.VmAction;
import io.gpuforge.domain.vm.VmConfig;
import io.gpuforge.domain.vm.VmRef;
import io.gpuforge.domain.vm.VmSpec;
import io.gpuforge.hypervisor.Hypervisor;
import io.gpuforge.testing.Eventually;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** What the Proxmox backend does beyond the shared checklist, against the simulated Demo lab. */
class ProxmoxHypervisorTest {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final VmRef TRAIN = new VmRef("pve-4090", "101");
    private static final List<PciAddress> SECOND_4090 = List.of(PciAddress.parse("0000:02:00.0"),
            PciAddress.parse("0000:02:00.1"));
    private PveSimulator sim;
    private ProxmoxHypervisor h;

    @BeforeEach
    void start() throws Exception {
        sim = new PveSimulator(SimCluster.demo());
        h = open(sim.tokenClient(PveContract.load()));
    }

    private ProxmoxHypervisor open(PveClient client) {
        return new ProxmoxHypervisor(client, "demo", new ProxmoxHypervisor.Options(Duration.ofMillis(50),
                Duration.ofMillis(100), Optional.empty()));
    }

    @AfterEach
    void stop() {
        h.close();
        sim.close();
    }

    /** A stopped VM on pve-4090 without a GPU, made through the backend itself. */
    private VmRef newVm(String name) throws Exception {
        return h.createVm("pve-4090", new VmSpec(name, 2, 1024, Optional.of("local-zfs:16"), "default", Optional.empty(),
                List.of(), false, true)).await(TaskListener.none(), () -> false, WAIT).created().orElseThrow();
    }

    @Test
    void aCardNoMappingNamesGetsAMappingWithItsIdsAndTheVmEverythingPassthroughNeeds() throws Exception {
        VmRef vm = newVm("cuda-01");
        VmConfig before = h.readConfig(vm);
        assertThat(before.details().isQ35()).isTrue();
        assertThat(before.settings()).doesNotContainKey("efidisk0").containsEntry("scsi0",
                "local-zfs:vm-" + vm.id() + "-disk-0,iothread=1,size=16G");
        GpuAttachResult r = h.attachGpu(new GpuAttachRequest(vm, SECOND_4090, true, Optional.empty(), Optional.empty(),
                before.version()));
        String id = "gpu-pve-4090-02-00";
        assertThat(r.changes()).containsExactly(
                "PCI resource mapping " + id + ": node=pve-4090,path=0000:02:00,id=10de:2684,subsystem-id=1458:40bf,"
                        + "iommugroup=13 (new)",
                "hostpci0: mapping=" + id + ",pcie=1,x-vga=1", "bios: ovmf",
                "efidisk0: local-zfs:1,efitype=4m,pre-enrolled-keys=0", "balloon: 0");
        assertThat(r.after().details().hostDevices()).containsExactlyElementsOf(SECOND_4090);
        assertThat(r.after().details().pciMappings()).containsExactly(id);
        assertThat(r.after().settings().get("efidisk0")).startsWith("local-zfs:vm-" + vm.id() + "-disk-1,");
        assertThat(h.inventory().gpus()).filteredOn(g -> g.address().equals(SECOND_4090.get(0))).singleElement()
                .satisfies(g -> {
                    assertThat(g.mapping()).contains(id);
                    assertThat(g.assignedTo()).contains(vm);
                    assertThat(g.name()).contains("RTX 4090");
                });
        // the second VM that gets this card reuses the mapping rather than making another
        VmRef other = newVm("cuda-02");
        GpuAttachResult again = h.attachGpu(new GpuAttachRequest(other, SECOND_4090, false, Optional.empty(),
                Optional.of("local-zfs"), h.readConfig(other).version()));
        assertThat(again.changes()).first().isEqualTo("hostpci0: mapping=" + id + ",pcie=1");
        // detach leaves the mapping for the next VM
        GpuAttachResult off = h.detachGpu(vm, SECOND_4090.get(0), r.after().version());
        assertThat(off.changes()).containsExactly("hostpci0: mapping=" + id + ",pcie=1,x-vga=1 (removed)");
        assertThat(off.after().details().hostDevices()).isEmpty();
        assertThat(PveMappings.read(sim.tokenClient(PveContract.load())).get(id)).isPresent();
    }

    @Test
    void aRunningVmIsNotGivenAGpuAsAPendingChange() throws Exception {
        VmConfig cfg = h.readConfig(TRAIN);
        assertThatThrownBy(() -> h.attachGpu(new GpuAttachRequest(TRAIN, SECOND_4090, false, Optional.empty(),
                Optional.empty(), cfg.version()))).isInstanceOfSatisfying(BackendException.class, e -> {
                    assertThat(e.kind()).isEqualTo(BackendException.Kind.INVALID);
                    assertThat(e.getMessage()).contains("is running").contains("shut it down").contains("pending");
                });
        assertThat(h.readConfig(TRAIN).settings()).doesNotContainKey("hostpci1");
    }

    @Test
    void aMappingNameThatIsTakenIsRefusedAndNothingIsWritten() throws Exception {
        VmRef vm = newVm("cuda-03");
        VmConfig cfg = h.readConfig(vm);
        assertThatThrownBy(() -> h.attachGpu(new GpuAttachRequest(vm, SECOND_4090, false, Optional.of("gpu-4090-a"),
                Optional.empty(), cfg.version()))).isInstanceOfSatisfying(BackendException.class, e -> {
                    assertThat(e.kind()).isEqualTo(BackendException.Kind.INVALID);
                    assertThat(e.getMessage()).contains("'gpu-4090-a' exists already");
                });
        assertThat(h.readConfig(vm).version()).isEqualTo(cfg.version());
    }

    @Test
    void aRawHostpciSetByRootIsReadAsEveryFunctionOfTheSlotAndDetached() throws Exception {
        VmRef vm = newVm("raw-01");
        PveClient root = new PveClient(sim.url(), new PveCredentials.Password("root@pam",
                sim.password().toCharArray()), Optional.of(sim.certificateFingerprint()), PveContract.load());
        VmConfig cfg = h.readConfig(vm);
        root.put("/nodes/pve-4090/qemu/" + vm.id() + "/config", Map.of("digest", cfg.version(), "hostpci0",
                "0000:02:00,pcie=1"));
        VmConfig with = h.readConfig(vm);
        assertThat(with.details().hostDevices()).containsExactlyElementsOf(SECOND_4090);
        assertThat(with.details().pciMappings()).isEmpty();
        assertThat(h.detachGpu(vm, SECOND_4090.get(1), with.version()).after().details().hostDevices()).isEmpty();
    }

    @Test
    void theConnectionStateFollowsTheAnswers() throws Exception {
        assertThat(h.state().status()).isEqualTo(ConnectionState.Status.CONNECTING);
        h.nodeStatus("pve-4090");
        assertThat(h.state().isConnected()).isTrue();
        assertThatThrownBy(() -> h.readConfig(new VmRef("pve-4090", "4242"))).isInstanceOf(BackendException.class);
        assertThat(h.state().isConnected()).as("a refusal is an answer").isTrue();

        try (ProxmoxHypervisor wrong = open(new PveClient(sim.url(), PveCredentials.Token.parse(
                PveSimulator.TOKEN_ID + "=not-the-secret"), Optional.of(sim.certificateFingerprint()), PveContract.load()))) {
            assertThatThrownBy(wrong::inventory).isInstanceOfSatisfying(BackendException.class,
                    e -> assertThat(e.kind()).isEqualTo(BackendException.Kind.AUTH));
            assertThat(wrong.state().status()).isEqualTo(ConnectionState.Status.FAILED);
            assertThat(wrong.state().message()).contains("401");
        }
        List<ChangeEvent> events = new CopyOnWriteArrayList<>();
        try (Hypervisor.Subscription s = h.watch(events::add)) {
            sim.close();
            waitFor(() -> h.state().status() == ConnectionState.Status.RECONNECTING);
            waitFor(() -> events.stream().anyMatch(e -> e.kind() == ChangeEvent.Kind.CONNECTION
                    && e.detail().startsWith("reconnecting")));
            assertThatThrownBy(h::inventory).isInstanceOfSatisfying(BackendException.class,
                    e -> assertThat(e.kind()).isIn(BackendException.Kind.NETWORK, BackendException.Kind.TIMEOUT));
        }
    }

    @Test
    void anUntrustedCertificateFailsTheConnectionWithTheFingerprintToCheck() throws Exception {
        try (ProxmoxHypervisor unpinned = open(new PveClient(sim.url(), PveCredentials.Token.parse(sim.token()),
                Optional.empty(), PveContract.load()))) {
            assertThatThrownBy(unpinned::inventory).isInstanceOfSatisfying(BackendException.class, e -> {
                assertThat(e.kind()).isEqualTo(BackendException.Kind.TLS);
                assertThat(e.getMessage()).contains(sim.certificateFingerprint());
            });
            assertThat(unpinned.state().status()).isEqualTo(ConnectionState.Status.FAILED);
        }
    }

    @Test
    void theInventoryIsFourClusterWideRequestsWhateverTheClusterHolds() throws Exception {
        int before = sim.requestCount();
        assertThat(h.inventory().nodes()).hasSize(3);
        assertThat(sim.requestCount() - before).isEqualTo(4);
        h.nodePci("pve-3090");
        before = sim.requestCount();
        ClusterInventory inv = h.inventory();
        assertThat(sim.requestCount() - before).as("a node's PCI listing read before costs nothing").isEqualTo(4);
        assertThat(inv.gpusOn("pve-3090")).as("the 3090s, known from the listing read before; only the first is"
                + " mapped (for the VMs whose start fails)").hasSize(4).extracting(g -> g.address() + " "
                + g.mapping().orElse("-")).containsExactlyInAnyOrder("0000:01:00.0 llm-3090", "0000:02:00.0 -",
                "0000:03:00.0 -", "0000:04:00.0 -");
        assertThat(inv.gpusOn("pve-4090")).as("the mapped 4090; the unmapped one is not known without its listing")
                .extracting(g -> g.mapping().orElse("")).containsExactly("gpu-4090-a");
        assertThat(inv.gpusOn("pve-4090").get(0).assignedTo()).as("VM 101's configuration was never read").isEmpty();
        h.readConfig(TRAIN);
        assertThat(h.inventory().gpusOn("pve-4090").get(0).assignedTo()).contains(TRAIN);
    }

    @Test
    void settingsAreSetAndDeletedInOneWriteAndAKeyOutsideTheContractIsRefused() throws Exception {
        VmRef vm = newVm("settings-01");
        VmConfig cfg = h.readConfig(vm);
        Map<String, Optional<String>> keys = new LinkedHashMap<>();
        keys.put("description", Optional.of("CUDA box\nowner: ada"));
        keys.put("net0", Optional.empty());
        keys.put("agent", Optional.of("enabled=1"));
        VmConfig after = h.writeConfig(vm, new ConfigChange.Settings(keys), cfg.version());
        assertThat(after.settings()).containsEntry("agent", "enabled=1").doesNotContainKey("net0");
        assertThat(after.details().nics()).isEmpty();
        assertThat(after.details().guestAgent()).contains(true);
        assertThat(after.document()).startsWith("#CUDA box\n#owner: ada\n");
        assertThatThrownBy(() -> h.writeConfig(vm, new ConfigChange.Settings(Map.of("hugepages", Optional.of("1024"))),
                after.version())).isInstanceOfSatisfying(BackendException.class, e -> {
                    assertThat(e.kind()).isEqualTo(BackendException.Kind.INVALID);
                    assertThat(e.getMessage()).contains("hugepages");
                });
        assertThatThrownBy(() -> h.writeConfig(vm, new ConfigChange.Document("<domain/>"), after.version()))
                .isInstanceOfSatisfying(BackendException.class,
                        e -> assertThat(e.kind()).isEqualTo(BackendException.Kind.UNSUPPORTED));
        assertThatThrownBy(() -> h.writeConfig(vm, new ConfigChange.Settings(Map.of("cores", Optional.of("2"))), ""))
                .hasMessageContaining("read the configuration first");
    }

    @Test
    void closingStopsTheFeedThread() throws Exception {
        Hypervisor.Subscription s = h.watch(e -> { });
        waitFor(() -> feedThreads() == 1);
        h.watch(e -> { });
        waitFor(() -> feedThreads() == 2);
        s.close();
        waitFor(() -> feedThreads() == 1);
        h.close();
        waitFor(() -> feedThreads() == 0);
        assertThatThrownBy(() -> h.watch(e -> { })).isInstanceOf(BackendException.class);
    }

    @Test
    void aFeedOnAGivenSchedulerUsesNoThreadOfItsOwnAndLeavesTheSchedulerRunning() throws Exception {
        ScheduledExecutorService given = Executors.newSingleThreadScheduledExecutor();
        try (ProxmoxHypervisor shared = new ProxmoxHypervisor(sim.tokenClient(PveContract.load()), "demo",
                new ProxmoxHypervisor.Options(Duration.ofMillis(50), Duration.ofMillis(100), Optional.of(given)))) {
            List<ChangeEvent> events = new CopyOnWriteArrayList<>();
            Hypervisor.Subscription s = shared.watch(events::add);
            waitFor(() -> shared.state().isConnected());
            shared.vmAction(TRAIN, VmAction.STOP).await(TaskListener.none(), () -> false, WAIT);
            waitFor(() -> events.stream().anyMatch(e -> e.kind() == ChangeEvent.Kind.VM_STATE
                    && e.vm().equals(Optional.of(TRAIN))));
            assertThat(feedThreads()).isZero();
            s.close();
            assertThat(given.isShutdown()).isFalse();
        } finally {
            given.shutdownNow();
        }
    }

    private static long feedThreads() {
        return Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().equals("pve-changes-demo")
                && t.isAlive()).count();
    }

    @Test
    void guestCommandsExitWithTheirCodeOrAreStillRunningWhenTheWaitEnds() throws Exception {
        GuestExecResult fails = h.guestExec(TRAIN, List.of("false"), WAIT);
        assertThat(fails.exited()).isTrue();
        assertThat(fails.exitCode()).hasValue(1);
        GuestExecResult echo = h.guestExec(TRAIN, List.of("echo", "two words", "three"), WAIT);
        assertThat(echo.stdout()).as("argv reaches the guest word by word").isEqualTo("two words three\n");
        GuestExecResult slow = h.guestExec(TRAIN, List.of("sleep", "30"), Duration.ofMillis(400));
        assertThat(slow.exited()).isFalse();
        assertThat(slow.exitCode()).isEmpty();
        assertThatThrownBy(() -> h.guestExec(TRAIN, List.of("no-such-tool"), WAIT)).isInstanceOf(BackendException.class)
                .hasMessageContaining("no-such-tool");
    }

    @Test
    void aGuestAgentThatDoesNotAnswerIsExplained() {
        sim.cluster().agentAnswers(101, false);
        assertThatThrownBy(() -> h.guestExec(TRAIN, List.of("true"), WAIT)).isInstanceOfSatisfying(BackendException.class,
                e -> assertThat(e.getMessage()).contains("guest agent of VM 101 is not running")
                        .contains("qemu-guest-agent").contains("--agent enabled=1"));
    }

    @Test
    void aVmIsCreatedFromADownloadedCloudImageAndARefusedSpecSaysWhy() throws Exception {
        PveClient c = sim.tokenClient(PveContract.load());
        Upid download = new PveApi(c).downloadUrl("pve-4090", "local", new PveApi.Download("import",
                "https://cloud-images.ubuntu.com/noble/current/noble-server-cloudimg-amd64.img",
                "noble.qcow2", Optional.empty(), Optional.empty()));
        assertThat(new PveTasks(c, Duration.ofMillis(50)).await(download, l -> { }, () -> false, WAIT).ok()).isTrue();
        VmRef vm = h.createVm("pve-4090", new VmSpec("import-01", 4, 2048, Optional.of("local:import/noble.qcow2"),
                "default", Optional.empty(), List.of(), true, true)).await(TaskListener.none(), () -> false, WAIT)
                .created().orElseThrow();
        VmConfig cfg = h.readConfig(vm);
        assertThat(cfg.settings()).containsEntry("scsi0", "local-zfs:vm-" + vm.id() + "-disk-1,iothread=1,size=2252M")
                .containsEntry("boot", "order=scsi0").containsEntry("net0", "virtio,bridge=vmbr0")
                .containsEntry("bios", "ovmf");
        assertThat(cfg.details().disks()).extracting(d -> d.slot()).containsExactly("efidisk0", "scsi0");
        assertThat(cfg.details().vcpus()).isEqualTo(4);

        assertThatThrownBy(() -> h.createVm("pve-4090", new VmSpec("gpu-01", 4, 2048, Optional.empty(), "default",
                Optional.empty(), SECOND_4090, true, true))).isInstanceOfSatisfying(BackendException.class, e -> {
                    assertThat(e.kind()).isEqualTo(BackendException.Kind.INVALID);
                    assertThat(e.getMessage()).contains("resource mappings").contains("attach the GPU");
                });
        assertThatThrownBy(() -> h.createVm("pve-4090", new VmSpec("under_score", 1, 512, Optional.empty(), "default",
                Optional.empty(), List.of(), false, true))).hasMessageContaining("'under_score' is not one");
        assertThatThrownBy(() -> h.createVm("pve-4090", new VmSpec("missing-01", 1, 512, Optional.of(
                "local:import/missing.qcow2"), "default", Optional.empty(), List.of(), false, true)))
                .isInstanceOfSatisfying(BackendException.class, e -> {
                    assertThat(e.kind()).isEqualTo(BackendException.Kind.NOT_FOUND);
                    assertThat(e.getMessage()).contains("volume 'local:import/missing.qcow2' does not exist");
                });
    }

    private static void waitFor(BooleanSupplier condition) throws InterruptedException {
        Eventually.until("the cluster's awaited state", Duration.ofSeconds(20), condition);
    }
}
