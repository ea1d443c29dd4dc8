package io.gpuforge.hypervisor;

import io.gpuforge.domain.share.ContainerDevice;
import io.gpuforge.domain.share.ContainerInfo;
import io.gpuforge.domain.share.ContainerSpec;
import java.util.Optional;
import java.util.Map;
import io.gpuforge.domain.BackendException;
import io.gpuforge.domain.Capability;
import io.gpuforge.domain.vm.ChangeEvent;
import io.gpuforge.domain.vm.CloneRequest;
import io.gpuforge.domain.vm.FailedStart;
import io.gpuforge.domain.ClusterInventory;
import io.gpuforge.domain.passthrough.ConfigChange;
import io.gpuforge.domain.connections.ConnectionState;
import io.gpuforge.domain.vm.GpuAttachRequest;
import io.gpuforge.domain.vm.GpuAttachResult;
import io.gpuforge.domain.vm.GuestExecResult;
import io.gpuforge.domain.vm.NetworkInfo;
import io.gpuforge.domain.telemetry.NodeHistory;
import io.gpuforge.domain.pci.NodePci;
import io.gpuforge.domain.NodeStatus;
import io.gpuforge.domain.pci.PciAddress;
import io.gpuforge.domain.vm.StorageInfo;
import io.gpuforge.domain.vm.VmAction;
import io.gpuforge.domain.vm.VmConfig;
import io.gpuforge.domain.vm.VmRef;
import io.gpuforge.domain.vm.VmSpec;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

/**
 * One connection to a hypervisor: a Proxmox VE cluster or a libvirt host, in the product's own types. Every
 * method blocks on the network: call it off the FX thread. What a backend cannot do is declared in
 * {@link #capabilities()}; calling such a method throws {@link BackendException.Kind#UNSUPPORTED}, never fakes
 * a result. Long operations return a {@link BackendTask} to follow (progress, log, cancel).
 *
 * <p>The contract test suite ({@code HypervisorContract} in the tests) is the checklist a backend passes.
 */
public interface Hypervisor extends AutoCloseable {

    /** "Proxmox VE" or "libvirt": for messages. */
    String kind();

    Set<Capability> capabilities();

    default boolean can(Capability c) {
        return capabilities().contains(c);
    }

    /** The last known state of the connection; changes also arrive as {@link ChangeEvent.Kind#CONNECTION}. */
    ConnectionState state();

    /** Nodes, VMs (templates included) and GPUs of the whole connection, in a bounded number of requests. */
    ClusterInventory inventory() throws BackendException;

    /** A node's PCI functions and IOMMU groups. */
    NodePci nodePci(String node) throws BackendException;

    NodeStatus nodeStatus(String node) throws BackendException;

    /**
     * What a node recorded over {@code timeframe} (CPU, memory, network), oldest point first;
     * {@link Capability#NODE_HISTORY}. A backend that keeps no history refuses it as unsupported.
     */
    default NodeHistory nodeHistory(String node, NodeHistory.Timeframe timeframe) throws BackendException {
        throw BackendException.unsupported(kind(), Capability.NODE_HISTORY);
    }

    /** Reboots a node through the hypervisor's API; {@link Capability#NODE_REBOOT}. */
    BackendTask rebootNode(String node) throws BackendException;

    BackendTask vmAction(VmRef vm, VmAction action) throws BackendException;

    /** Deletes a stopped VM and its disks; {@link Capability#VM_DELETE}. */
    BackendTask deleteVm(VmRef vm) throws BackendException;

    VmConfig readConfig(VmRef vm) throws BackendException;

    /**
     * Changes a VM's configuration if it is still at {@code basedOnVersion}; otherwise
     * {@link BackendException.Kind#CONFLICT} and nothing changes. Returns the configuration afterwards.
     */
    VmConfig writeConfig(VmRef vm, ConfigChange change, String basedOnVersion) throws BackendException;

    /**
     * Passes a GPU through to a (stopped) VM: Proxmox PCI resource mapping + {@code hostpciN}, q35, OVMF, no
     * balloon; libvirt a managed {@code <hostdev>} per function. Written against the request's version.
     */
    GpuAttachResult attachGpu(GpuAttachRequest request) throws BackendException;

    /**
     * What {@link #attachGpu} would change for {@code request}, written nowhere: the same lines it would return
     * (the mapping it would make, the {@code hostpciN} it would use; the {@code <hostdev>} elements), refused
     * as it would refuse (a running Proxmox VE VM, no free slot, the card there already, a changed version). The
     * result's configuration is the VM's as it is now.
     */
    GpuAttachResult previewGpuAttach(GpuAttachRequest request) throws BackendException;

    /** Takes every function of the card in {@code gpu}'s slot away from the VM. */
    GpuAttachResult detachGpu(VmRef vm, PciAddress gpu, String basedOnVersion) throws BackendException;

    /** Turns a stopped VM into a template; {@link Capability#TEMPLATES}. */
    BackendTask convertToTemplate(VmRef vm) throws BackendException;

    /** Clones a VM or template; the outcome names the new VM; {@link Capability#CLONE}. */
    BackendTask cloneVm(CloneRequest request) throws BackendException;

    /** Defines a new VM on {@code node}; the outcome names it; {@link Capability#CREATE_VM}. */
    BackendTask createVm(String node, VmSpec spec) throws BackendException;

    /** The storages (Proxmox VE) or storage pools (libvirt) of a node, for a new VM's disks, images and ISOs. */
    default List<StorageInfo> storages(String node) throws BackendException {
        throw BackendException.unsupported(kind(), Capability.CREATE_VM);
    }

    /** Where a new VM's NIC can connect: the node's bridges (Proxmox VE) or the host's networks (libvirt). */
    default List<NetworkInfo> networks(String node) throws BackendException {
        throw BackendException.unsupported(kind(), Capability.CREATE_VM);
    }

    /**
     * The volumes of a storage that hold {@code content} ({@code iso}, {@code import}), as the backend names them
     * ({@code local:iso/virtio-win.iso}; a libvirt volume's name).
     */
    default List<String> volumes(String node, String storage, String content) throws BackendException {
        throw BackendException.unsupported(kind(), Capability.CREATE_VM);
    }

    /**
     * Runs {@code command} (argv, no shell) inside a running VM through the QEMU guest agent and waits up to
     * {@code timeout} for it to exit; {@link Capability#GUEST_EXEC}.
     */
    GuestExecResult guestExec(VmRef vm, List<String> command, Duration timeout)
            throws BackendException, InterruptedException;

    /**
     * Writes {@code content} byte for byte as {@code file} inside a running VM through the QEMU guest agent (the
     * file's directory must exist); {@link Capability#GUEST_FILE_WRITE}.
     */
    default void guestFileWrite(VmRef vm, String file, byte[] content) throws BackendException {
        throw BackendException.unsupported(kind(), Capability.GUEST_FILE_WRITE);
    }

    /**
     * Writes the VM's cloud-init drive again from its configuration now, rather than at its next start (Proxmox
     * VE's {@code PUT …/cloudinit}): after a snippet with secrets was removed, so the drive holds them no longer;
     * {@link Capability#CREATE_VM}.
     */
    default void regenerateCloudInit(VmRef vm) throws BackendException {
        throw BackendException.unsupported(kind(), Capability.CREATE_VM);
    }

    /**
     * Tells {@code listener} about changes as they happen (libvirt events; Proxmox polls the cluster's resources
     * and tasks and reports what differs). The listener runs on a backend thread: hop to your own. Close the
     * subscription to stop.
     */
    /** The LXC containers of a node with their device entries and raw lxc lines ({@link Capability#CONTAINERS}). */
    default List<ContainerInfo> containers(String node) throws BackendException {
        throw BackendException.unsupported(kind(), Capability.CONTAINERS);
    }

    /** One container's configuration, with the digest a change is based on. */
    default ContainerInfo container(String node, int vmid) throws BackendException {
        throw BackendException.unsupported(kind(), Capability.CONTAINERS);
    }

    /** Creates a container from a template volume (a task that ends with it made, and started when asked). */
    default BackendTask createContainer(String node, ContainerSpec spec) throws BackendException {
        throw BackendException.unsupported(kind(), Capability.CONTAINERS);
    }

    /**
     * Sets ({@code devN} → entry) and deletes ({@code devN} → empty) device entries of a stopped container, based on
     * the configuration's digest: changed meanwhile, the write is refused as a conflict.
     */
    default ContainerInfo setContainerDevices(String node, int vmid, Map<Integer, Optional<ContainerDevice>> changes,
                                              String digest) throws BackendException {
        throw BackendException.unsupported(kind(), Capability.CONTAINERS);
    }

    /** Starts, shuts down or stops a container ({@link VmAction#REBOOT} is not offered). */
    default BackendTask containerAction(String node, int vmid, VmAction action) throws BackendException {
        throw BackendException.unsupported(kind(), Capability.CONTAINERS);
    }

    /** Deletes a stopped container and its volumes. */
    default BackendTask deleteContainer(String node, int vmid) throws BackendException {
        throw BackendException.unsupported(kind(), Capability.CONTAINERS);
    }

    /**
     * The VM's last start that failed, with its log (at most {@code maxLines} lines), where the hypervisor keeps one
     * (Proxmox VE's {@code qmstart} tasks); empty when none failed recently or the hypervisor keeps no such record.
     */
    default Optional<FailedStart> lastFailedStart(VmRef vm, int maxLines) throws BackendException {
        return Optional.empty();
    }

    Subscription watch(Consumer<ChangeEvent> listener) throws BackendException;

    /** Releases the connection. Never waits long on the network (a dead host must not freeze the caller). */
    @Override
    void close();

    /** A registration that ends when closed. */
    @FunctionalInterface
    interface Subscription extends AutoCloseable {
        @Override
        void close();
    }
}
