package io.gpuforge.app.vmcreate;

import io.gpuforge.domain.message.Message;
import io.gpuforge.app.host.HostAccess;
import io.gpuforge.app.host.HostKeyPrompt;
import io.gpuforge.app.session.ConnectionSession;
import io.gpuforge.app.session.Sessions;
import io.gpuforge.app.tasks.TaskLog;
import io.gpuforge.domain.BackendException;
import io.gpuforge.domain.Capability;
import io.gpuforge.domain.vm.CloudInit;
import io.gpuforge.domain.passthrough.ConfigChange;
import io.gpuforge.domain.connections.ConnectionInfo;
import io.gpuforge.domain.vm.GpuAttachRequest;
import io.gpuforge.domain.GpuInfo;
import io.gpuforge.domain.vm.NetworkInfo;
import io.gpuforge.domain.NodeStatus;
import io.gpuforge.domain.pci.PciAddress;
import io.gpuforge.domain.Redaction;
import io.gpuforge.domain.vm.StorageInfo;
import io.gpuforge.domain.tasks.TaskListener;
import io.gpuforge.domain.tasks.TaskOutcome;
import io.gpuforge.domain.vm.VmAction;
import io.gpuforge.domain.vm.VmConfig;
import io.gpuforge.domain.vm.VmField;
import io.gpuforge.domain.vm.VmInfo;
import io.gpuforge.domain.vm.VmOptions;
import io.gpuforge.domain.vm.VmRef;
import io.gpuforge.domain.vm.VmSpec;
import io.gpuforge.domain.vm.VmState;
import io.gpuforge.domain.vm.VmTemplate;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;

/**
 * Creating a VM from a template, for the wizard and {@code gpuforge vm create}: what a target offers (free memory,
 * storages, networks, free GPUs, clone sources), the checks of a request against it (errors block, warnings tell
 * of over-commit), the spec and the exact calls or domain XML that will be sent, and the create itself with
 * progress and cancel, the GPU attach ({@link ConnectionSession#attachGpu}) and an optional start. Blocking.
 *
 * <p>On Proxmox VE the template's user-data cannot be uploaded through the API (snippets): it goes to the node as a
 * snippet over its host link, else to the guest's own cloud-init over the guest agent after the first boot
 * ({@link FirstBootProvisioning}); the result, its notes, the progress and the create's task log entry say which.
 */
public final class VmProvisioning {

    private final Sessions sessions;
    private final CloudInitSnippets snippets;
    private final VmUserData userData;
    private final SnippetCleanup cleanup;

    /** Without host access: a template's user-data never goes to a Proxmox VE node as a snippet. */
    public VmProvisioning(Sessions sessions) {
        this(sessions, null, new FirstBootProvisioning(), null);
    }

    /**
     * With the node's host links, for the template's user-data as a snippet ({@code cicustom}), and the task log,
     * where the snippet's removal after the first boot is written.
     */
    public VmProvisioning(Sessions sessions, HostAccess hosts, TaskLog taskLog) {
        this(sessions, hosts, new FirstBootProvisioning(), taskLog);
    }

    /** @param firstBoot how the user-data goes in after the first boot where no snippet can be written */
    VmProvisioning(Sessions sessions, HostAccess hosts, FirstBootProvisioning firstBoot) {
        this(sessions, hosts, firstBoot, null);
    }

    private VmProvisioning(Sessions sessions, HostAccess hosts, FirstBootProvisioning firstBoot, TaskLog taskLog) {
        this.sessions = sessions;
        this.snippets = new CloudInitSnippets(hosts);
        this.userData = new VmUserData(snippets, firstBoot);
        this.cleanup = new SnippetCleanup(sessions, snippets, taskLog, Clock.systemUTC(), SnippetCleanup.FIRST_BOOT_WAIT);
    }

    /** The removal of a template's user-data snippet once the VM's first boot is done. */
    public SnippetCleanup snippets() {
        return cleanup;
    }

    /** A node of a hypervisor connection (a libvirt host is its one node). */
    public record Target(ConnectionInfo connection, String node) {
        public boolean proxmox() {
            return connection.kind() == ConnectionInfo.Kind.PROXMOX || connection.kind() == ConnectionInfo.Kind.DEMO;
        }
    }

    /** What the target offers, read once for the wizard's pages. */
    public record Choices(NodeStatus status, List<StorageInfo> storages, List<NetworkInfo> networks, List<GpuInfo> gpus,
                          List<VmInfo> vms, List<VmInfo> cloneSources, boolean canClone, Optional<String> noSnippet) {
        public Choices(NodeStatus status, List<StorageInfo> storages, List<NetworkInfo> networks, List<GpuInfo> gpus,
                       List<VmInfo> vms, List<VmInfo> cloneSources) {
            this(status, storages, networks, gpus, vms, cloneSources, false, Optional.of("the node was not checked"));
        }

        /**
         * @param noSnippet why a template's user-data cannot go to the (Proxmox VE) node as a snippet; empty when it
         *                  can (a storage with content {@code snippets} and a host link)
         */
        public Choices {
            Objects.requireNonNull(noSnippet);
            storages = List.copyOf(storages);
            networks = List.copyOf(networks);
            gpus = List.copyOf(gpus);
            vms = List.copyOf(vms);
            cloneSources = List.copyOf(cloneSources);
        }

        public List<GpuInfo> freeGpus() {
            return gpus.stream().filter(GpuInfo::free).toList();
        }

        public List<StorageInfo> diskStorages() {
            return storages.stream().filter(s -> s.active() && s.holds(StorageInfo.IMAGES)).toList();
        }

        /** The template VMs on {@code node}: what the wizard offers to clone there. */
        public List<VmInfo> cloneSourcesOn(String node) {
            return cloneSources.stream().filter(v -> v.ref().node().equals(node)).toList();
        }

        public long freeMemoryBytes() {
            return status.memoryTotalBytes().orElse(0) - status.memoryUsedBytes().orElse(0);
        }
    }

    /**
     * A template VM to clone instead of building from the template: the VM, the storage of its system disk, and
     * whether the clone is linked (its disks stay on that storage) or a full copy onto the request's storage.
     */
    public record Clone(VmInfo source, Optional<String> sourceStorage, boolean linked) {
        public Clone {
            Objects.requireNonNull(source);
            Objects.requireNonNull(sourceStorage);
        }

        public Clone linked(boolean l) {
            return new Clone(source, sourceStorage, l);
        }
    }

    /**
     * Everything the user chose. {@code cloudInit}'s user-data is left empty: the template's is rendered here. With
     * a {@code cloneOf}, {@code template} is the shape of the template VM ({@link TemplateService#describe}).
     */
    public record Request(Target target, VmTemplate template, String name, int cores, int memoryMiB, int diskGiB,
                          String storage, String network, String cpuType, Optional<CloudInit> cloudInit,
                          Map<String, String> variables, Optional<GpuInfo> gpu, boolean start, Optional<Clone> cloneOf) {
        public Request(Target target, VmTemplate template, String name, int cores, int memoryMiB, int diskGiB,
                       String storage, String network, String cpuType, Optional<CloudInit> cloudInit,
                       Map<String, String> variables, Optional<GpuInfo> gpu, boolean start) {
            this(target, template, name, cores, memoryMiB, diskGiB, storage, network, cpuType, cloudInit, variables, gpu,
                    start, Optional.empty());
        }

        public Request {
            variables = Map.copyOf(variables);
            Objects.requireNonNull(cloneOf);
        }
    }

    /** A finding about a request: an error blocks the create, a warning does not. */
    public record Problem(VmField field, boolean error, Message message) {
    }

    public ConnectionSession session(Target t) {
        return sessions.of(t.connection());
    }

    /**
     * What the target offers. The node's GPUs come from its PCI listing, and whether each is free from the
     * configurations of the node's VMs (Proxmox VE's inventory knows a VM's devices only once its configuration was
     * read: they are read here, one request per VM of the node).
     */
    public Choices choices(Target t) throws BackendException {
        ConnectionSession s = session(t);
        var first = s.inventory();
        s.nodePci(t.node());
        if (t.proxmox()) {
            for (VmInfo v : first.vmsOn(t.node())) {
                if (!v.template()) {
                    s.readConfig(v.ref());
                }
            }
        }
        var inv = s.inventory();
        return new Choices(s.nodeStatus(t.node()), s.storages(t.node()), s.networks(t.node()), inv.gpusOn(t.node()),
                inv.vmsOn(t.node()), inv.templates(), t.proxmox() && s.can(Capability.CLONE), t.proxmox()
                ? snippets.whyNot(t.connection(), t.node(), s.storages(t.node())) : Optional.empty());
    }

    /** A template VM as a clone source: its configuration read for the storage of its disk (linked clone: stays). */
    public Clone cloneSource(Target t, VmInfo vm) throws BackendException {
        return new Clone(vm, VmClones.diskStorage(session(t).readConfig(vm.ref())), vm.template());
    }

    /** The request's problems against what the target offers. */
    public static List<Problem> check(Request r, Choices c) {
        return VmRequestChecks.check(r, c);
    }

    /** The spec sent to the backend; the template's user-data rendered with the request's values. */
    public static VmSpec spec(Request r) {
        VmTemplate t = r.template();
        Optional<CloudInit> ci = t.os() == VmTemplate.Os.WINDOWS ? Optional.empty()
                : r.cloudInit().map(c -> c.withUserData(t.renderUserData(r.variables())));
        VmOptions o = new VmOptions(Optional.of(r.storage()), OptionalInt.of(r.diskGiB()), t.image(), ci, r.cpuType(),
                t.tpm(), t.osType(), t.agent(), t.isos());
        boolean uefi = t.uefi() || r.gpu().isPresent();
        return new VmSpec(r.name(), r.cores(), r.memoryMiB(), Optional.empty(), r.network(), Optional.empty(), List.of(),
                uefi, r.target().proxmox() || !"test".equals(r.target().connection().address().split(":")[0]), o);
    }

    /**
     * What will be sent, as the summary shows it, with how a template's user-data reaches a Proxmox VE VM: as a
     * snippet over the node's host link, or not (PVE's own cloud-init fields, and why).
     */
    public static String preview(Request r, Choices c) {
        return VmPreview.preview(r, c);
    }

    /** What will be sent, as the summary shows it: Proxmox VE's calls with their parameters, or libvirt's domain XML. */
    public static String preview(Request r) {
        return VmPreview.preview(r);
    }

    /** {@link #create(Request, TaskListener, BooleanSupplier, HostKeyPrompt)} trusting no new SSH host key. */
    public VmCreateResult create(Request r, TaskListener progress, BooleanSupplier cancelled)
            throws BackendException, InterruptedException {
        return create(r, progress, cancelled, (host, type, fingerprint) -> false);
    }

    /**
     * Creates the VM, attaches the GPU and starts it when asked; a create that failed after taking an id is removed.
     * On Proxmox VE a template's user-data goes to the node as a snippet over its host link ({@code hostKeys} asked
     * about a host key seen for the first time), else the VM keeps PVE's own cloud-init fields for its first boot
     * and the user-data goes to the guest's cloud-init over the guest agent once it runs: the notes, the progress
     * and the create's task log entry say which. A module that fails there leaves the VM as it is.
     */
    public VmCreateResult create(Request r, TaskListener progress, BooleanSupplier cancelled, HostKeyPrompt hostKeys)
            throws BackendException, InterruptedException {
        ConnectionSession s = session(r.target());
        VmSpec spec = spec(r);
        Redaction secrets = VmSecrets.of(r);
        if (r.gpu().isPresent()) {
            VmGpuPreflight.check(s, r.target().node(), r.gpu().get());
        }
        try {
            if (r.cloneOf().isPresent()) {
                return cloned(r, s, secrets.wrap(progress), cancelled);
            }
            List<VmCreateResult> result = new ArrayList<>();
            s.createVm(r.target().node(), spec, progress, cancelled, (out, log) -> {
                VmCreateResult done = created(r, s, spec, out, log, cancelled, hostKeys);
                result.add(done);
                return done.setupFailed() ? new TaskOutcome(out.task(), false, "VM " + out.created().map(VmRef::id)
                        .orElse("?") + " created; its setup over the guest agent did not finish", out.log(),
                        out.created()) : out;
            }, secrets);
            return result.get(0).masked(secrets);
        } catch (BackendException e) {
            throw secrets.apply(e);
        }
    }

    private VmCreateResult created(Request r, ConnectionSession s, VmSpec spec, TaskOutcome out, TaskListener progress,
                           BooleanSupplier cancelled, HostKeyPrompt hostKeys) throws BackendException, InterruptedException {
        List<String> notes = new ArrayList<>();
        if (!out.ok()) {
            String id = out.task().target();
            if (r.target().proxmox() && !id.isEmpty()) {
                VmRef left = new VmRef(r.target().node(), id);
                boolean ours = s.inventory().vm(left).map(v -> v.name().equals(r.name())).orElse(false);
                if (ours) {
                    s.deleteVm(left, progress, () -> false);
                    notes.add("VM " + id + " that the create had begun was removed again");
                }
            }
            return new VmCreateResult(out, Optional.empty(), Optional.empty(), notes);
        }
        VmRef vm = out.created().orElseThrow();
        VmConfig cfg = s.readConfig(vm);
        Optional<CloudInit> ci = spec.options().cloudInit().filter(c -> c.userData().isPresent());
        UserDataWay way = UserDataWay.NONE;
        Optional<SnippetCleanup.Pending> snippet = Optional.empty();
        if (r.target().proxmox() && ci.isPresent()) {
            VmUserData.Step step = userData.snippet(r, s, vm, cfg, notes, progress, hostKeys);
            cfg = step.config();
            way = step.afterFirstBoot() ? UserDataWay.GUEST_AGENT : UserDataWay.SNIPPET;
            snippet = step.snippets().map(w -> new SnippetCleanup.Pending(r.target().connection(), vm, w.userVolume(),
                    w.metaVolume()));
        }
        VmCreateResult done = finish(r, s, out, vm, cfg, notes, progress, cancelled);
        if (way != UserDataWay.GUEST_AGENT) {
            List<String> after = new ArrayList<>(done.notes());
            snippet.ifPresent(p -> {
                String note = done.started() ? "Cloud-init: GPUForge removes the snippet once the first boot of VM "
                        + vm.id() + " reported done (a task of its own in the task log)" : "Cloud-init: the snippet"
                        + " stays until VM " + vm.id() + "'s first boot is done; GPUForge removes it when it starts"
                        + " the VM, or run: " + SnippetCleanup.later(p);
                progress.line(note);
                after.add(note);
            });
            return new VmCreateResult(out, done.vm(), done.config(), after, way, Optional.empty(), snippet);
        }
        List<String> after = new ArrayList<>(done.notes());
        if (!done.started()) {
            String note = VmUserData.notStarted(r, vm);
            progress.line(note);
            after.add(note);
            return new VmCreateResult(out, done.vm(), done.config(), after, UserDataWay.GUEST_AGENT_LATER, Optional.empty(),
                    Optional.empty());
        }
        FirstBootProvisioning.Outcome o = userData.afterBoot(r, s, vm, after, progress, cancelled);
        return new VmCreateResult(out, done.vm(), done.config(), after, way, Optional.of(o), Optional.empty());
    }

    /**
     * Runs the template's setup in a VM that was made without its user-data (no snippet): starts it when it is
     * stopped, waits for its guest agent, writes the user-data and runs cloud-init's modules for it. The request is
     * the one the VM was made from (its template, name, user, keys, password, values).
     */
    public FirstBootProvisioning.Outcome provision(Request r, VmRef vm, TaskListener progress, BooleanSupplier cancelled)
            throws BackendException, InterruptedException {
        if (r.template().os() == VmTemplate.Os.WINDOWS || r.cloudInit().isEmpty() || r.template().userData().isEmpty()) {
            throw new BackendException(BackendException.Kind.INVALID, "The template " + r.template().name()
                    + " has no cloud-init user-data to run in VM " + vm.id());
        }
        ConnectionSession s = session(r.target());
        Redaction secrets = VmSecrets.of(r);
        TaskListener shown = secrets.wrap(progress);
        if (!s.can(Capability.GUEST_FILE_WRITE)) {
            throw BackendException.unsupported(s.connection().name() + " (its VMs get the user-data from their"
                    + " NoCloud seed)", Capability.GUEST_FILE_WRITE);
        }
        if (s.inventory().vm(vm).map(v -> v.state() != VmState.RUNNING).orElseThrow(() -> new BackendException(
                BackendException.Kind.NOT_FOUND, "There is no VM " + vm.id() + " on " + vm.node()))) {
            TaskOutcome started = s.vmAction(vm, VmAction.START, shown, cancelled);
            if (!started.ok()) {
                throw new BackendException(BackendException.Kind.FAILED, "VM " + vm.id() + " did not start: "
                        + started.status());
            }
        }
        return userData.afterBoot(r, s, vm, new ArrayList<>(), shown, cancelled);
    }

    /** A clone of the request's template VM, then its resources and cloud-init as one configuration change. */
    private VmCreateResult cloned(Request r, ConnectionSession s, TaskListener progress, BooleanSupplier cancelled)
            throws BackendException, InterruptedException {
        List<String> notes = new ArrayList<>();
        var before = s.inventory().vms().stream().map(VmInfo::ref).collect(Collectors.toSet());
        TaskOutcome out = s.cloneVm(VmClones.request(r), progress, cancelled);
        if (!out.ok()) {
            for (VmInfo left : s.inventory().vms()) {
                if (!before.contains(left.ref()) && left.name().equals(r.name())) {
                    s.deleteVm(left.ref(), progress, () -> false);
                    notes.add("VM " + left.ref().id() + " that the clone had begun was removed again");
                }
            }
            return new VmCreateResult(out, Optional.empty(), Optional.empty(), notes);
        }
        VmRef vm = out.created().orElseThrow();
        VmConfig cloned = s.readConfig(vm);
        ConfigChange change = VmClones.change(r, cloned);
        progress.line("Configuring the clone " + vm.id() + ": " + String.join(", ",
                ((ConfigChange.Settings) change).keys().keySet()));
        VmConfig cfg = s.writeConfig(vm, change, cloned.version());
        return finish(r, s, out, vm, cfg, notes, progress, cancelled);
    }

    private VmCreateResult finish(Request r, ConnectionSession s, TaskOutcome out, VmRef vm, VmConfig created, List<String> notes,
                          TaskListener progress, BooleanSupplier cancelled) throws BackendException, InterruptedException {
        VmConfig cfg = created;
        if (r.gpu().isPresent()) {
            GpuInfo g = r.gpu().get();
            List<PciAddress> functions = s.nodePci(r.target().node()).inventory().devices().stream()
                    .map(d -> d.address()).filter(a -> a.slotAddress().equals(g.address().slotAddress()))
                    .collect(Collectors.toList());
            var attached = s.attachGpu(new GpuAttachRequest(vm, functions.isEmpty() ? List.of(g.address()) : functions,
                    false, g.mapping(), Optional.of(r.storage()), cfg.version()));
            progress.line("GPU " + g.address() + " attached: " + String.join(", ", attached.changes()));
            cfg = attached.after();
        }
        if (r.start()) {
            TaskOutcome started = s.vmAction(vm, VmAction.START, progress, cancelled);
            notes.add(started.ok() ? vm.id() + " started" : "start failed: " + started.status());
        }
        return new VmCreateResult(out, Optional.of(vm), Optional.of(cfg), notes);
    }
}
