package io.gpuforge.app.session;

import io.gpuforge.domain.share.ContainerDevice;
import java.util.Optional;
import java.util.Map;
import io.gpuforge.domain.share.ContainerInfo;
import io.gpuforge.domain.share.ContainerSpec;
import io.gpuforge.app.tasks.TaskLog;
import io.gpuforge.domain.BackendException;
import io.gpuforge.domain.Capability;
import io.gpuforge.domain.vm.ChangeEvent;
import io.gpuforge.domain.vm.CloneRequest;
import io.gpuforge.domain.vm.FailedStart;
import io.gpuforge.domain.ClusterInventory;
import io.gpuforge.domain.passthrough.ConfigChange;
import io.gpuforge.domain.connections.ConnectionInfo;
import io.gpuforge.domain.connections.ConnectionState;
import io.gpuforge.domain.vm.GpuAttachRequest;
import io.gpuforge.domain.vm.GpuAttachResult;
import io.gpuforge.domain.vm.GuestExecResult;
import io.gpuforge.domain.vm.NetworkInfo;
import io.gpuforge.domain.telemetry.NodeHistory;
import io.gpuforge.domain.pci.NodePci;
import io.gpuforge.domain.NodeStatus;
import io.gpuforge.domain.pci.PciAddress;
import io.gpuforge.domain.Redaction;
import io.gpuforge.domain.vm.StorageInfo;
import io.gpuforge.domain.tasks.TaskListener;
import io.gpuforge.domain.tasks.TaskOutcome;
import io.gpuforge.domain.vm.VmAction;
import io.gpuforge.domain.vm.VmConfig;
import io.gpuforge.domain.vm.VmRef;
import io.gpuforge.domain.vm.VmSpec;
import io.gpuforge.hypervisor.BackendTask;
import io.gpuforge.hypervisor.Hypervisor;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * One saved hypervisor connection (a Proxmox VE cluster, the Demo lab, a libvirt host) as the window and the CLI
 * use it: the backend's operations in the product's own types, long operations awaited with progress and cancel
 * and written to the task log. The backend is opened on first use; when the connection drops, it is opened again
 * by itself with backoff ({@link SessionLink}) while anyone listens, and the change feed is subscribed again.
 * Every method blocks: call it off the FX thread. {@link #close()} never waits on the network.
 */
public final class ConnectionSession implements AutoCloseable {

    /** How long a task may run before GPUForge stops waiting (a clone of a big disk takes a while). */
    public static final Duration TASK_TIMEOUT = Duration.ofMinutes(30);

    private final ConnectionInfo connection;
    private final SessionLink link;
    private final TaskLog taskLog;

    ConnectionSession(ConnectionInfo connection, HypervisorFactory factory, Executor closer) {
        this(connection, factory, closer, SessionLink.Reconnect.never(), null);
    }

    ConnectionSession(ConnectionInfo connection, HypervisorFactory factory, Executor closer,
                      SessionLink.Reconnect reconnect, TaskLog taskLog) {
        this.connection = connection;
        this.link = new SessionLink(connection, factory, closer, reconnect);
        this.taskLog = taskLog;
    }

    public ConnectionInfo connection() {
        return connection;
    }

    /** What this connection can do: its backend's answer once connected, before that what its kind can do. */
    public Set<Capability> capabilities() {
        return link.capabilities();
    }

    public boolean can(Capability c) {
        return capabilities().contains(c);
    }

    /** Connecting, connected, reconnecting (with the reason), failed (login or certificate refused), closed. */
    public ConnectionState state() {
        return link.state();
    }

    /** Hears each change of {@link #state()}, on the thread that saw it: hop to your own. */
    public void addStateListener(Consumer<ConnectionState> l) {
        link.addStateListener(l);
    }

    public void removeStateListener(Consumer<ConnectionState> l) {
        link.removeStateListener(l);
    }

    private <T> T quick(SessionLink.Call<T> c) throws BackendException {
        try {
            return link.call(c);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BackendException(BackendException.Kind.FAILED, "interrupted", e);
        }
    }

    public ClusterInventory inventory() throws BackendException {
        return quick(Hypervisor::inventory);
    }

    public NodePci nodePci(String node) throws BackendException {
        return quick(h -> h.nodePci(node));
    }

    public NodeStatus nodeStatus(String node) throws BackendException {
        return quick(h -> h.nodeStatus(node));
    }

    public List<StorageInfo> storages(String node) throws BackendException {
        return quick(h -> h.storages(node));
    }

    public List<NetworkInfo> networks(String node) throws BackendException {
        return quick(h -> h.networks(node));
    }

    public List<String> volumes(String node, String storage, String content) throws BackendException {
        return quick(h -> h.volumes(node, storage, content));
    }

    /** A node's recorded CPU, memory and network; {@link Capability#NODE_HISTORY}. */
    public NodeHistory nodeHistory(String node, NodeHistory.Timeframe timeframe) throws BackendException {
        return quick(h -> h.nodeHistory(node, timeframe));
    }

    public VmConfig readConfig(VmRef vm) throws BackendException {
        return quick(h -> h.readConfig(vm));
    }

    /** The VM's last failed start and its log ({@link Hypervisor#lastFailedStart}). */
    public Optional<FailedStart> lastFailedStart(VmRef vm, int maxLines) throws BackendException {
        return quick(h -> h.lastFailedStart(vm, maxLines));
    }

    public VmConfig writeConfig(VmRef vm, ConfigChange change, String basedOnVersion) throws BackendException {
        return quick(h -> h.writeConfig(vm, change, basedOnVersion));
    }

    public GpuAttachResult attachGpu(GpuAttachRequest request) throws BackendException {
        return quick(h -> h.attachGpu(request));
    }

    /** What {@link #attachGpu} would change, written nowhere (see {@code Hypervisor.previewGpuAttach}). */
    public GpuAttachResult previewGpuAttach(GpuAttachRequest request) throws BackendException {
        return quick(h -> h.previewGpuAttach(request));
    }

    public GpuAttachResult detachGpu(VmRef vm, PciAddress gpu, String basedOnVersion) throws BackendException {
        return quick(h -> h.detachGpu(vm, gpu, basedOnVersion));
    }

    /** Runs a VM power action to its end; {@code cancelled} is polled while it runs. */
    public TaskOutcome vmAction(VmRef vm, VmAction action, TaskListener progress, BooleanSupplier cancelled)
            throws BackendException, InterruptedException {
        return recorded(actionOf(action), vm.toString(), capitalised(action.json()) + " VM " + vm.id() + " on "
                + vm.node(), progress, l -> link.call(h -> await(h.vmAction(vm, action), l, cancelled)));
    }

    public TaskOutcome deleteVm(VmRef vm, TaskListener progress, BooleanSupplier cancelled)
            throws BackendException, InterruptedException {
        return recorded(TaskLog.VM_DELETE, vm.toString(), "Delete VM " + vm.id() + " on " + vm.node(), progress,
                l -> link.call(h -> await(h.deleteVm(vm), l, cancelled)));
    }

    public TaskOutcome cloneVm(CloneRequest request, TaskListener progress, BooleanSupplier cancelled)
            throws BackendException, InterruptedException {
        return recorded(TaskLog.VM_CLONE, request.source().toString(), "Clone VM " + request.source().id() + " as "
                + request.name() + (request.full() ? " (full clone)" : " (linked clone)"), progress,
                l -> link.call(h -> await(h.cloneVm(request), l, cancelled)));
    }

    public TaskOutcome convertToTemplate(VmRef vm, TaskListener progress, BooleanSupplier cancelled)
            throws BackendException, InterruptedException {
        return recorded(TaskLog.VM_TEMPLATE, vm.toString(), "Convert VM " + vm.id() + " on " + vm.node() + " to a template",
                progress, l -> link.call(h -> await(h.convertToTemplate(vm), l, cancelled)));
    }

    public TaskOutcome createVm(String node, VmSpec spec, TaskListener progress, BooleanSupplier cancelled)
            throws BackendException, InterruptedException {
        return recorded(TaskLog.VM_CREATE, node, "Create VM " + spec.name() + " on " + node, progress,
                l -> link.call(h -> await(h.createVm(node, spec), l, cancelled)));
    }

    /**
     * {@link #createVm(String, VmSpec, TaskListener, BooleanSupplier)}, then {@code then} (cloud-init, GPU, start,
     * provisioning) within the same task log entry: its lines are the entry's, its outcome the entry's end.
     */
    public TaskOutcome createVm(String node, VmSpec spec, TaskListener progress, BooleanSupplier cancelled,
                                FollowUp then) throws BackendException, InterruptedException {
        return createVm(node, spec, progress, cancelled, then, Redaction.none());
    }

    /**
     * {@link #createVm(String, VmSpec, TaskListener, BooleanSupplier, FollowUp)} with {@code secrets} masked in
     * every line, the end's status and the error it may end with, before they reach the progress or the task log.
     */
    public TaskOutcome createVm(String node, VmSpec spec, TaskListener progress, BooleanSupplier cancelled,
                                FollowUp then, Redaction secrets) throws BackendException, InterruptedException {
        return recorded(TaskLog.VM_CREATE, node, "Create VM " + spec.name() + " on " + node, progress, secrets, l -> {
            TaskOutcome out = link.call(h -> await(h.createVm(node, spec), l, cancelled));
            return then.run(out, l);
        });
    }

    /** What follows a task in its task log entry, given the task's outcome and the entry's listener. */
    @FunctionalInterface
    public interface FollowUp {
        TaskOutcome run(TaskOutcome outcome, TaskListener progress) throws BackendException, InterruptedException;
    }

    /** A node's LXC containers with their device entries; {@link Capability#CONTAINERS}. */
    public List<ContainerInfo> containers(String node) throws BackendException {
        return quick(h -> h.containers(node));
    }

    public ContainerInfo container(String node, int vmid) throws BackendException {
        return quick(h -> h.container(node, vmid));
    }

    public ContainerInfo setContainerDevices(String node, int vmid, Map<Integer, Optional<ContainerDevice>> changes,
                                             String digest) throws BackendException {
        return quick(h -> h.setContainerDevices(node, vmid, changes, digest));
    }

    public TaskOutcome createContainer(String node, ContainerSpec spec, TaskListener progress, BooleanSupplier cancelled)
            throws BackendException, InterruptedException {
        return recorded(TaskLog.CT_CREATE, node + "/" + spec.vmid(), "Create container " + spec.hostname() + " ("
                + spec.vmid() + ") on " + node, progress, l -> link.call(h -> await(h.createContainer(node, spec), l,
                cancelled)));
    }

    /** Starts, shuts down or stops a container to its end. */
    public TaskOutcome containerAction(String node, int vmid, VmAction action, TaskListener progress,
                                       BooleanSupplier cancelled) throws BackendException, InterruptedException {
        String kind = switch (action) {
            case START -> TaskLog.CT_START;
            case SHUTDOWN -> TaskLog.CT_SHUTDOWN;
            default -> TaskLog.CT_STOP;
        };
        return recorded(kind, node + "/" + vmid, capitalised(action.json()) + " container " + vmid + " on " + node,
                progress, l -> link.call(h -> await(h.containerAction(node, vmid, action), l, cancelled)));
    }

    public TaskOutcome deleteContainer(String node, int vmid, TaskListener progress, BooleanSupplier cancelled)
            throws BackendException, InterruptedException {
        return recorded(TaskLog.CT_DELETE, node + "/" + vmid, "Delete container " + vmid + " on " + node, progress,
                l -> link.call(h -> await(h.deleteContainer(node, vmid), l, cancelled)));
    }

    public TaskOutcome rebootNode(String node, TaskListener progress, BooleanSupplier cancelled)
            throws BackendException, InterruptedException {
        return recorded(TaskLog.NODE_REBOOT, node, "Reboot node " + node, progress,
                l -> link.call(h -> await(h.rebootNode(node), l, cancelled)));
    }

    public GuestExecResult guestExec(VmRef vm, List<String> command, Duration timeout)
            throws BackendException, InterruptedException {
        return link.call(h -> h.guestExec(vm, command, timeout));
    }

    /** Writes the VM's cloud-init drive again from its configuration ({@link Hypervisor#regenerateCloudInit}). */
    public void regenerateCloudInit(VmRef vm) throws BackendException {
        quick(h -> {
            h.regenerateCloudInit(vm);
            return null;
        });
    }

    /** Writes a file inside a running VM through its guest agent; {@link Capability#GUEST_FILE_WRITE}. */
    public void guestFileWrite(VmRef vm, String file, byte[] content) throws BackendException {
        quick(h -> {
            h.guestFileWrite(vm, file, content);
            return null;
        });
    }

    /**
     * Changes as they happen, on a backend thread (hop to your own), also across reconnects: after the connection
     * came back, a {@link ChangeEvent.Kind#INVENTORY} event says to read everything again. Close the returned
     * handle to stop; closing never waits on the network. A connection that cannot be reached now is watched once
     * it can; one whose backend has no change feed is refused ({@link BackendException.Kind#UNSUPPORTED}).
     */
    public AutoCloseable watch(Consumer<ChangeEvent> listener) throws BackendException {
        return link.watch(listener);
    }

    @FunctionalInterface
    private interface TaskCall {
        TaskOutcome run(TaskListener progress) throws BackendException, InterruptedException;
    }

    private TaskOutcome recorded(String action, String target, String description, TaskListener progress, TaskCall call)
            throws BackendException, InterruptedException {
        return recorded(action, target, description, progress, Redaction.none(), call);
    }

    /** Runs a task, writing it to the task log: its start, each log line, its end; {@code secrets} masked in each. */
    private TaskOutcome recorded(String action, String target, String description, TaskListener progress,
                                 Redaction secrets, TaskCall call) throws BackendException, InterruptedException {
        if (taskLog == null) {
            try {
                return secrets.apply(call.run(secrets.wrap(progress)));
            } catch (BackendException e) {
                throw secrets.apply(e);
            }
        }
        TaskLog.Running entry = taskLog.begin(connection, action, target, description);
        TaskListener both = secrets.wrap(line -> {
            entry.line(line);
            progress.line(line);
        });
        try {
            TaskOutcome out = secrets.apply(call.run(both));
            entry.finish(out);
            return out;
        } catch (BackendException e) {
            BackendException shown = secrets.apply(e);
            entry.failed(shown);
            throw shown;
        } catch (InterruptedException e) {
            entry.failed(e);
            throw e;
        } catch (RuntimeException e) {
            entry.failed(secrets.reveals(e.getMessage()) ? new IllegalStateException(secrets.apply(e.getMessage())) : e);
            throw e;
        }
    }

    private static String actionOf(VmAction a) {
        switch (a) {
            case START:
                return TaskLog.VM_START;
            case SHUTDOWN:
                return TaskLog.VM_SHUTDOWN;
            case REBOOT:
                return TaskLog.VM_REBOOT;
            default:
                return TaskLog.VM_STOP;
        }
    }

    private static String capitalised(String s) {
        return Character.toUpperCase(s.charAt(0)) + s.substring(1);
    }

    private static TaskOutcome await(BackendTask t, TaskListener progress, BooleanSupplier cancelled)
            throws BackendException, InterruptedException {
        BooleanSupplier stop = () -> cancelled.getAsBoolean() || Thread.currentThread().isInterrupted();
        return t.await(progress, stop, TASK_TIMEOUT);
    }

    /** Lets the backend go; the network part of closing happens on a background thread. */
    @Override
    public void close() {
        link.close();
    }
}
