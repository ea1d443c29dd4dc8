package io.gpuforge.hypervisor.libvirt;

import io.gpuforge.domain.BackendException;
import io.gpuforge.domain.BackendException.Kind;
import io.gpuforge.domain.Capability;
import io.gpuforge.domain.vm.ChangeEvent;
import io.gpuforge.domain.vm.CloneRequest;
import io.gpuforge.domain.ClusterInventory;
import io.gpuforge.domain.passthrough.ConfigChange;
import io.gpuforge.domain.connections.ConnectionState;
import io.gpuforge.domain.vm.GpuAttachRequest;
import io.gpuforge.domain.vm.GpuAttachResult;
import io.gpuforge.domain.vm.GuestExecResult;
import io.gpuforge.domain.pci.IommuState;
import io.gpuforge.domain.vm.NetworkInfo;
import io.gpuforge.domain.pci.NodePci;
import io.gpuforge.domain.NodeStatus;
import io.gpuforge.domain.pci.PciAddress;
import io.gpuforge.domain.pci.PciInventory;
import io.gpuforge.domain.SpecRefusedException;
import io.gpuforge.domain.vm.StorageInfo;
import io.gpuforge.domain.tasks.TaskOutcome;
import io.gpuforge.domain.tasks.TaskRef;
import io.gpuforge.domain.vm.VmAction;
import io.gpuforge.domain.vm.VmConfig;
import io.gpuforge.domain.vm.VmDisk;
import io.gpuforge.domain.vm.VmRef;
import io.gpuforge.domain.vm.VmSpec;
import io.gpuforge.hypervisor.BackendTask;
import io.gpuforge.hypervisor.Hypervisor;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.libvirt.Connect;
import org.libvirt.LibvirtException;

/**
 * A libvirt host ({@code qemu:///system}, {@code qemu+ssh://root@host/system}, {@code test:///file.xml}) as a
 * {@link Hypervisor}: the host is the one node, a VM is a domain ({@code VmRef} = host name, domain name).
 * libvirt finishes its operations when they return, so every task is done at once and cannot be cancelled.
 * libvirt has no templates, clones or host reboot: those are not declared and are refused as
 * {@link Kind#UNSUPPORTED}; so is the guest agent on drivers other than QEMU's.
 *
 * <p>Deleting a VM undefines the domain with its UEFI variables (NVRAM) and keeps its disks; the outcome
 * lists them. Attaching a GPU to an i440fx or BIOS domain is allowed (libvirt allows it) with a warning in the
 * result. One connection serves every call and the change feed; {@link #close()} returns at once.
 */
public final class LibvirtHypervisor implements Hypervisor {

    private static final Set<Capability> EVERY_DRIVER = Collections.unmodifiableSet(EnumSet.of(Capability.INVENTORY,
            Capability.NODE_PCI, Capability.NODE_STATUS, Capability.VM_LIFECYCLE, Capability.VM_DELETE,
            Capability.VM_CONFIG, Capability.VM_CONFIG_DOCUMENT, Capability.GPU_ATTACH, Capability.CREATE_VM,
            Capability.CLONE, Capability.CHANGE_FEED));

    private final LibvirtConnection connection;
    private final String host;
    private final Set<Capability> capabilities;
    private final DomainConfigs configs;
    private final GpuAttach gpus;
    private final GuestAgent agent = new GuestAgent();
    private final LibvirtProvisioning provisioning;
    private final LibvirtClones clones;
    private final ChangeFeed feed;
    private final AtomicLong tasks = new AtomicLong();

    private LibvirtHypervisor(LibvirtConnection connection, String host, String driver) {
        this.connection = connection;
        this.host = host;
        this.capabilities = capabilitiesOf(driver);
        this.configs = new DomainConfigs(connection);
        this.gpus = new GpuAttach(connection, configs);
        this.feed = new ChangeFeed(connection, host);
        this.provisioning = new LibvirtProvisioning(connection);
        this.clones = new LibvirtClones(connection);
    }

    /** What a connection to this driver ({@code QEMU}, {@code TEST}…) can do: the guest agent is QEMU's. */
    public static Set<Capability> capabilitiesOf(String driver) {
        Set<Capability> caps = EnumSet.copyOf(EVERY_DRIVER);
        if ("QEMU".equalsIgnoreCase(driver)) {
            caps.add(Capability.GUEST_EXEC);
        }
        return Collections.unmodifiableSet(caps);
    }

    public static LibvirtHypervisor open(String uri) throws BackendException {
        return open(uri, KeepAlive.DEFAULT);
    }

    public static LibvirtHypervisor open(String uri, KeepAlive keepAlive) throws BackendException {
        LibvirtConnection c;
        try {
            c = LibvirtConnection.open(uri, keepAlive);
        } catch (LibvirtBackendException e) {
            throw e.toBackend();
        }
        try {
            LibvirtHypervisor h = new LibvirtHypervisor(c, c.hostname(), c.call("read its driver", Connect::getType));
            h.feed.start();
            return h;
        } catch (LibvirtBackendException e) {
            c.close();
            throw e.toBackend();
        }
    }

    @Override
    public String kind() {
        return "libvirt";
    }

    @Override
    public Set<Capability> capabilities() {
        return capabilities;
    }

    @Override
    public ConnectionState state() {
        return feed.state();
    }

    @FunctionalInterface
    private interface Op<T> {
        T run() throws LibvirtBackendException;
    }

    /** Hands a libvirt failure on in the seam's terms; a lost connection also changes {@link #state()}. */
    private <T> T guard(Op<T> op) throws BackendException {
        try {
            return op.run();
        } catch (LibvirtBackendException e) {
            throw failure(e);
        }
    }

    private BackendException failure(LibvirtBackendException e) {
        if (e.getCause() instanceof SpecRefusedException) {
            return (SpecRefusedException) e.getCause();
        }
        if (e.kind() == Kind.NETWORK) {
            feed.failed("The connection to " + host + " is lost: " + e.getMessage());
        }
        return e.toBackend();
    }

    private String domain(VmRef vm) throws BackendException {
        if (!vm.node().equals(host)) {
            throw new BackendException(Kind.NOT_FOUND, "There is no VM " + vm + ": this libvirt connection is the host "
                    + host + ", not " + vm.node());
        }
        return vm.id();
    }

    private void node(String node) throws BackendException {
        if (!node.equals(host)) {
            throw new BackendException(Kind.NOT_FOUND, "There is no node " + node + ": this libvirt connection is the"
                    + " host " + host);
        }
    }

    private void need(Capability c) throws BackendException {
        if (!can(c)) {
            throw BackendException.unsupported(kind(), c);
        }
    }

    @Override
    public ClusterInventory inventory() throws BackendException {
        return guard(() -> LibvirtInventory.read(connection, host));
    }

    @Override
    public NodePci nodePci(String node) throws BackendException {
        node(node);
        return guard(() -> {
            PciInventory inv = connection.pciInventory();
            IommuState iommu = !inv.groups().isEmpty() ? IommuState.ENABLED : connection.iommuSupport()
                    .map(s -> s ? IommuState.ENABLED : IommuState.DISABLED).orElse(IommuState.UNKNOWN);
            return new NodePci(host, inv, iommu);
        });
    }

    @Override
    public NodeStatus nodeStatus(String node) throws BackendException {
        node(node);
        return guard(() -> {
            HostInfo hw = HostInfo.read(connection);
            return new NodeStatus(host, Optional.of(connection.versions()), Optional.empty(), OptionalLong.empty(),
                    OptionalDouble.empty(), hw.cpus(), OptionalLong.of(hw.memoryBytes()), hw.usedBytes());
        });
    }

    @Override
    public BackendTask rebootNode(String node) throws BackendException {
        throw BackendException.unsupported(kind(), Capability.NODE_REBOOT);
    }

    @Override
    public BackendTask vmAction(VmRef vm, VmAction action) throws BackendException {
        String name = domain(vm);
        return guard(() -> {
            String line;
            switch (action) {
                case START:
                    connection.start(name);
                    line = name + " started";
                    break;
                case SHUTDOWN:
                    connection.shutdown(name);
                    line = name + " was asked to shut down (ACPI): it stops when its guest does";
                    break;
                case REBOOT:
                    connection.reboot(name);
                    line = name + " was asked to reboot";
                    break;
                default:
                    connection.forceOff(name);
                    line = name + " was powered off";
                    break;
            }
            return done(action.json(), vm, "OK", List.of(line), Optional.empty());
        });
    }

    private BackendTask done(String type, VmRef vm, String status, List<String> log, Optional<VmRef> created) {
        TaskRef ref = new TaskRef("libvirt-" + type + "-" + tasks.incrementAndGet(), host, type, vm.id());
        return BackendTask.done(new TaskOutcome(ref, true, status, log, created));
    }

    @Override
    public BackendTask deleteVm(VmRef vm) throws BackendException {
        String name = domain(vm);
        return guard(() -> {
            List<String> disks = connection.withDomain(name, "read the configuration of " + name, d -> {
                if (d.isActive() == 1) {
                    throw new LibvirtBackendException(Kind.INVALID, name + " is running: stop it before deleting it", null);
                }
                return DomainDetails.parse(d.getXMLDesc(DomainConfigs.XML_INACTIVE)).disks().stream()
                        .filter(k -> !k.cdrom() && !k.source().isEmpty()).map(VmDisk::source).toList();
            });
            connection.undefine(name);
            List<String> log = new ArrayList<>();
            log.add(name + " was undefined, with its UEFI variables (NVRAM)");
            log.add(disks.isEmpty() ? name + " had no disks" : "its disks were kept: " + String.join(", ", disks));
            return done("undefine", vm, disks.isEmpty() ? "OK" : "OK (disks kept)", log, Optional.empty());
        });
    }

    @Override
    public VmConfig readConfig(VmRef vm) throws BackendException {
        String name = domain(vm);
        return guard(() -> configs.read(new VmRef(host, name)));
    }

    @Override
    public VmConfig writeConfig(VmRef vm, ConfigChange change, String basedOnVersion) throws BackendException {
        domain(vm);
        if (change instanceof ConfigChange.Settings) {
            throw BackendException.unsupported(kind(), Capability.VM_CONFIG_SETTINGS);
        }
        return guard(() -> configs.write(vm, change, basedOnVersion));
    }

    @Override
    public GpuAttachResult attachGpu(GpuAttachRequest request) throws BackendException {
        domain(request.vm());
        return guard(() -> gpus.attach(request, connection.domains()));
    }

    @Override
    public GpuAttachResult previewGpuAttach(GpuAttachRequest request) throws BackendException {
        domain(request.vm());
        return guard(() -> gpus.preview(request, connection.domains()));
    }

    @Override
    public GpuAttachResult detachGpu(VmRef vm, PciAddress gpu, String basedOnVersion) throws BackendException {
        domain(vm);
        return guard(() -> gpus.detach(vm, gpu, basedOnVersion));
    }

    @Override
    public BackendTask convertToTemplate(VmRef vm) throws BackendException {
        throw BackendException.unsupported(kind(), Capability.TEMPLATES);
    }

    @Override
    public BackendTask cloneVm(CloneRequest request) throws BackendException {
        String name = domain(request.source());
        if (request.targetNode().isPresent()) {
            node(request.targetNode().get());
        }
        VmRef clone = new VmRef(host, request.name());
        return guard(() -> done("clone", request.source(), "OK", clones.clone(name, request), Optional.of(clone)));
    }

    @Override
    public BackendTask createVm(String node, VmSpec spec) throws BackendException {
        node(node);
        VmRef vm = new VmRef(host, spec.name());
        return guard(() -> {
            if (exists(spec.name())) {
                throw new LibvirtBackendException(Kind.INVALID, "A VM named " + spec.name() + " exists on " + host
                        + " already: pick another name", null);
            }
            List<String> log = new ArrayList<>();
            provisioning.create(spec, log::add);
            log.add(spec.name() + " was defined: " + spec.vcpus() + " vCPU, " + spec.memoryMiB() + " MiB, q35, "
                    + (spec.uefi() ? "UEFI" : "BIOS") + (spec.hostDevices().isEmpty() ? "" : ", PCI " + spec.hostDevices()));
            return done("define", vm, "OK", log, Optional.of(vm));
        });
    }

    @Override
    public List<StorageInfo> storages(String node) throws BackendException {
        node(node);
        return guard(() -> provisioning.volumes().pools());
    }

    @Override
    public List<NetworkInfo> networks(String node) throws BackendException {
        node(node);
        return guard(() -> provisioning.volumes().networks());
    }

    @Override
    public List<String> volumes(String node, String storage, String content) throws BackendException {
        node(node);
        return guard(() -> provisioning.volumes().volumes(storage, content));
    }

    private boolean exists(String name) throws LibvirtBackendException {
        return connection.call("look up " + name, c -> LibvirtClones.exists(c, name));
    }

    @Override
    public GuestExecResult guestExec(VmRef vm, List<String> command, Duration timeout)
            throws BackendException, InterruptedException {
        need(Capability.GUEST_EXEC);
        String name = domain(vm);
        GuestAgent.Channel channel = (json, seconds) -> connection.withDomain(name, "reach the guest agent of " + name,
                d -> {
            try {
                // a deadline of our own: libvirt's default (-1) is to wait for ever for an agent that stops answering
                return d.qemuAgentCommand(json, seconds, 0);
            } catch (LibvirtException e) {
                throw GuestAgent.refused(name, e);
            }
        });
        try {
            return agent.exec(name, channel, command, timeout);
        } catch (LibvirtBackendException e) {
            throw failure(e);
        }
    }

    @Override
    public Subscription watch(Consumer<ChangeEvent> listener) throws BackendException {
        return guard(() -> feed.subscribe(listener));
    }

    @Override
    public void close() {
        feed.closed();
        connection.close();
    }
}
