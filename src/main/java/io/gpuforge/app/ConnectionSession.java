package io.gpuforge.app;

import io.gpuforge.domain.BackendException;
import io.gpuforge.domain.Capability;
import io.gpuforge.domain.ChangeEvent;
import io.gpuforge.domain.CloneRequest;
import io.gpuforge.domain.ClusterInventory;
import io.gpuforge.domain.ConfigChange;
import io.gpuforge.domain.ConnectionInfo;
import io.gpuforge.domain.ConnectionState;
import io.gpuforge.domain.GpuAttachRequest;
import io.gpuforge.domain.GpuAttachResult;
import io.gpuforge.domain.GuestExecResult;
import io.gpuforge.domain.NetworkInfo;
import io.gpuforge.domain.NodePci;
import io.gpuforge.domain.NodeStatus;
import io.gpuforge.domain.PciAddress;
import io.gpuforge.domain.StorageInfo;
import io.gpuforge.domain.TaskListener;
import io.gpuforge.domain.TaskOutcome;
import io.gpuforge.domain.VmAction;
import io.gpuforge.domain.VmConfig;
import io.gpuforge.domain.VmRef;
import io.gpuforge.domain.VmSpec;
import io.gpuforge.hypervisor.BackendTask;
import io.gpuforge.hypervisor.Hypervisor;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One saved hypervisor connection (a Proxmox VE cluster, the Demo lab, a libvirt host) as the window and the CLI
 * use it: the backend's operations in the product's own types, long operations awaited with progress and
 * cancel. The backend is opened on first use and reopened after the connection dropped. Every method blocks:
 * call it off the FX thread. {@link #close()} never waits on the network.
 */
public final class ConnectionSession implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ConnectionSession.class);
    /** How long a task may run before GPUForge stops waiting (a clone of a big disk takes a while). */
    public static final Duration TASK_TIMEOUT = Duration.ofMinutes(30);

    private final ConnectionInfo connection;
    private final HypervisorFactory factory;
    private final Executor closer;
    private Hypervisor hypervisor;
    private volatile ConnectionState lastState = new ConnectionState(ConnectionState.Status.CONNECTING, "");
    private boolean closed;

    ConnectionSession(ConnectionInfo connection, HypervisorFactory factory, Executor closer) {
        this.connection = connection;
        this.factory = factory;
        this.closer = closer;
    }

    public ConnectionInfo connection() {
        return connection;
    }

    /** What this connection can do: its backend's answer once connected, before that what its kind can do. */
    public Set<Capability> capabilities() {
        Hypervisor h;
        synchronized (this) {
            h = hypervisor;
        }
        return h == null ? factory.capabilities(connection.kind()) : h.capabilities();
    }

    public boolean can(Capability c) {
        return capabilities().contains(c);
    }

    public ConnectionState state() {
        Hypervisor h;
        synchronized (this) {
            h = hypervisor;
        }
        return h == null ? lastState : h.state();
    }

    private synchronized Hypervisor backend() throws BackendException {
        if (closed) {
            throw new BackendException(BackendException.Kind.FAILED, connection.name() + " is closed");
        }
        if (hypervisor == null) {
            try {
                hypervisor = factory.open(connection);
                lastState = ConnectionState.connected();
            } catch (BackendException e) {
                lastState = new ConnectionState(ConnectionState.Status.FAILED, e.getMessage());
                throw e;
            }
        }
        return hypervisor;
    }

    /** A dropped connection is opened again on the next call. */
    private synchronized void dropped(Hypervisor h, BackendException e) {
        if (hypervisor == h && e.kind() == BackendException.Kind.NETWORK) {
            LOG.info("{}: connection lost ({}); it is reopened on the next request", connection.name(), e.getMessage());
            hypervisor = null;
            lastState = new ConnectionState(ConnectionState.Status.RECONNECTING, e.getMessage());
            closer.execute(h::close);
        }
    }

    @FunctionalInterface
    private interface Call<T> {
        T on(Hypervisor h) throws BackendException, InterruptedException;
    }

    private <T> T call(Call<T> c) throws BackendException, InterruptedException {
        Hypervisor h = backend();
        try {
            return c.on(h);
        } catch (BackendException e) {
            dropped(h, e);
            throw e;
        }
    }

    private <T> T quick(Call<T> c) throws BackendException {
        try {
            return call(c);
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

    public VmConfig readConfig(VmRef vm) throws BackendException {
        return quick(h -> h.readConfig(vm));
    }

    public VmConfig writeConfig(VmRef vm, ConfigChange change, String basedOnVersion) throws BackendException {
        return quick(h -> h.writeConfig(vm, change, basedOnVersion));
    }

    public GpuAttachResult attachGpu(GpuAttachRequest request) throws BackendException {
        return quick(h -> h.attachGpu(request));
    }

    public GpuAttachResult detachGpu(VmRef vm, PciAddress gpu, String basedOnVersion) throws BackendException {
        return quick(h -> h.detachGpu(vm, gpu, basedOnVersion));
    }

    /** Runs a VM power action to its end; {@code cancelled} is polled while it runs. */
    public TaskOutcome vmAction(VmRef vm, VmAction action, TaskListener progress, BooleanSupplier cancelled)
            throws BackendException, InterruptedException {
        return call(h -> await(h.vmAction(vm, action), progress, cancelled));
    }

    public TaskOutcome deleteVm(VmRef vm, TaskListener progress, BooleanSupplier cancelled)
            throws BackendException, InterruptedException {
        return call(h -> await(h.deleteVm(vm), progress, cancelled));
    }

    public TaskOutcome cloneVm(CloneRequest request, TaskListener progress, BooleanSupplier cancelled)
            throws BackendException, InterruptedException {
        return call(h -> await(h.cloneVm(request), progress, cancelled));
    }

    public TaskOutcome convertToTemplate(VmRef vm, TaskListener progress, BooleanSupplier cancelled)
            throws BackendException, InterruptedException {
        return call(h -> await(h.convertToTemplate(vm), progress, cancelled));
    }

    public TaskOutcome createVm(String node, VmSpec spec, TaskListener progress, BooleanSupplier cancelled)
            throws BackendException, InterruptedException {
        return call(h -> await(h.createVm(node, spec), progress, cancelled));
    }

    public TaskOutcome rebootNode(String node, TaskListener progress, BooleanSupplier cancelled)
            throws BackendException, InterruptedException {
        return call(h -> await(h.rebootNode(node), progress, cancelled));
    }

    public GuestExecResult guestExec(VmRef vm, List<String> command, Duration timeout)
            throws BackendException, InterruptedException {
        return call(h -> h.guestExec(vm, command, timeout));
    }

    /**
     * Changes as they happen, on a backend thread (hop to your own). Close the returned handle to stop; closing
     * never waits on the network.
     */
    public AutoCloseable watch(Consumer<ChangeEvent> listener) throws BackendException {
        Hypervisor.Subscription s = quick(h -> h.watch(listener));
        return () -> closer.execute(s::close);
    }

    private static TaskOutcome await(BackendTask t, TaskListener progress, BooleanSupplier cancelled)
            throws BackendException, InterruptedException {
        BooleanSupplier stop = () -> cancelled.getAsBoolean() || Thread.currentThread().isInterrupted();
        return t.await(progress, stop, TASK_TIMEOUT);
    }

    /** Lets the backend go; the network part of closing happens on a background thread. */
    @Override
    public void close() {
        Hypervisor h;
        synchronized (this) {
            closed = true;
            h = hypervisor;
            hypervisor = null;
            lastState = new ConnectionState(ConnectionState.Status.CLOSED, "");
        }
        if (h != null) {
            closer.execute(h::close);
        }
    }
}
