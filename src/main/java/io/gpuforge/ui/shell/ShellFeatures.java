package io.gpuforge.ui.shell;

import io.gpuforge.app.FirstRun;
import io.gpuforge.app.host.HostTarget;
import io.gpuforge.domain.connections.ConnectionInfo;
import io.gpuforge.domain.telemetry.FleetGpu;
import io.gpuforge.domain.GpuInfo;
import io.gpuforge.domain.pci.PciAddress;
import io.gpuforge.ui.common.Icons;
import io.gpuforge.ui.common.NavItem;
import io.gpuforge.ui.common.Page;
import io.gpuforge.ui.common.PageExtensions;
import io.gpuforge.ui.common.UiContext;
import io.gpuforge.ui.common.VmPageExtension;
import io.gpuforge.ui.diagnose.VmDiagnosisWindow;
import io.gpuforge.ui.monitor.GpuMonitor;
import io.gpuforge.ui.monitor.GpuTabs;
import io.gpuforge.ui.diagnose.DiagnoseWindow;
import io.gpuforge.ui.passthrough.AnalyseListing;
import io.gpuforge.ui.diagnose.DiagnoseServices;
import io.gpuforge.ui.monitor.MonitorServices;
import io.gpuforge.ui.vmcreate.VmCreateServices;
import io.gpuforge.ui.passthrough.GpuDetach;
import io.gpuforge.ui.passthrough.PassthroughServices;
import io.gpuforge.ui.passthrough.PassthroughWizard;
import io.gpuforge.ui.passthrough.Preselection;
import io.gpuforge.ui.passthrough.RollbackWindow;
import io.gpuforge.ui.vmcreate.CreateVmWizard;
import io.gpuforge.ui.welcome.WelcomeActions;
import io.gpuforge.ui.welcome.WelcomePage;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import javafx.application.Platform;
import javafx.scene.control.Button;
import javafx.scene.control.ChoiceDialog;
import javafx.scene.control.Tab;
import javafx.stage.Window;
import org.kordamp.ikonli.feather.Feather;

/**
 * The window's doors to the features that live in their own packages: the passthrough wizard, Analyse a listing,
 * rollback, the VM creation wizard, the GPU monitor (one window, brought to the front when asked again) and its
 * tabs on node and VM pages, and the welcome page. Opened from the toolbar, the menus and the tree's context menus,
 * with what is selected preselected.
 */
final class ShellFeatures {

    private final UiContext ui;
    private final Supplier<Window> owner;
    private final Supplier<Optional<NavItem>> selected;
    private final FirstRun firstRun;
    private final PassthroughServices passthrough;
    private final DiagnoseServices diagnosis;
    private final MonitorServices monitorServices;
    private final VmCreateServices vmCreation;
    private GpuMonitor monitor;

    ShellFeatures(UiContext ui, Supplier<Window> owner, Supplier<Optional<NavItem>> selected) {
        this.ui = ui;
        this.owner = owner;
        this.selected = selected;
        this.firstRun = new FirstRun(ui.app().settings(), ui.app().connections());
        this.passthrough = PassthroughServices.of(ui.app());
        this.diagnosis = DiagnoseServices.of(ui.app());
        this.monitorServices = MonitorServices.of(ui.app());
        this.vmCreation = VmCreateServices.of(ui.app());
    }

    /** The GPU monitor's tabs on every node and VM page. */
    void register(PageExtensions extensions) {
        // the passthrough wizard's "Create a VM..." opens the VM wizard on the GPU's node
        ui.links().vmCreation(CreateVmWizard.creation(ui, vmCreation));
        // its Done page: "Why did it fail?" when the VM does not start or its guest does not see the GPU
        ui.links().vmDiagnosis((owner, connection, vm) -> VmDiagnosisWindow.open(ui, diagnosis, owner, connection,
                vm));
        // the cluster's IOMMU tables: "Pass through to VM…" on a GPU's row; the container wizard: a GPU on vfio-pci
        ui.links().passthrough((owner, connection, node, gpu) -> PassthroughWizard.open(ui, passthrough, owner,
                Optional.of(Preselection.node(connection, node, Optional.of(gpu)))));
        ui.links().rollback((owner, host) -> RollbackWindow.open(ui, passthrough, owner, host));
        extensions.addNode(n -> List.of(GpuTabs.forNode(n.ui(), monitorServices, n.connection(), n.node())));
        extensions.addVm(new VmPageExtension() {
            @Override
            public List<Button> actions(Context vm) {
                Button add = button("vm.gpu.add", Feather.ZAP, () -> PassthroughWizard.open(ui, passthrough, vm.owner(),
                        Optional.of(Preselection.node(vm.connection(), vm.vm().node(), Optional.empty()))));
                add.setId("vm-gpu-add");
                Button detach = button("vm.gpu.detach", Feather.SCISSORS, () -> detach(vm));
                detach.setId("vm-gpu-detach");
                Button why = button("diagnose.vm.action", Feather.HELP_CIRCLE, () -> VmDiagnosisWindow.open(ui,
                        diagnosis, vm.owner(), vm.connection(), vm.vm()));
                why.setId("vm-diagnose");
                return List.of(add, detach, why);
            }

            @Override
            public List<Tab> tabs(Context vm) {
                return List.of(GpuTabs.forVm(vm.ui(), monitorServices, vm.connection(), vm.vm()));
            }
        });
    }

    /** The task log's "Why did it fail?" for a failed VM start: the VM's diagnosis window. */
    void whyFailed(io.gpuforge.ui.tasks.TaskLogView taskLog) {
        taskLog.onWhyFailed((connectionId, vm) -> ui.tasks().supply(ui.i18n().get("diagnose.vm.task", vm.id()),
                () -> ui.app().connections().find(connectionId)).onSuccess(c -> c.ifPresent(found ->
                VmDiagnosisWindow.open(ui, diagnosis, owner.get(), found, vm))).start());
    }

    private Button button(String key, Feather icon, Runnable action) {
        Button b = new Button();
        b.textProperty().bind(ui.i18n().text(key));
        b.setGraphic(Icons.of(icon));
        b.setOnAction(e -> action.run());
        return b;
    }

    /** Detach: the GPUs the inventory places in this VM; one is detached after GpuDetach's confirmation. */
    private void detach(VmPageExtension.Context vm) {
        ui.tasks().supply(ui.i18n().get("vm.gpu.detach"), () -> ui.app().sessions().of(vm.connection()).inventory()
                        .gpus().stream().filter(g -> g.assignedTo().map(vm.vm()::equals).orElse(false)).toList())
                .onSuccess(gpus -> {
                    if (gpus.isEmpty()) {
                        ui.dialogs().showInfo("vm.gpu.detach", ui.i18n().get("vm.gpu.none"));
                        return;
                    }
                    Optional<GpuInfo> pick = gpus.size() == 1 ? Optional.of(gpus.get(0)) : choose(vm, gpus);
                    pick.ifPresent(g -> GpuDetach.detach(ui, passthrough, vm.connection(), vm.vm(), g.address()));
                })
                .onError(t -> ui.dialogs().showError("vm.gpu.detach", t.getMessage(), t))
                .start();
    }

    private Optional<GpuInfo> choose(VmPageExtension.Context vm, List<GpuInfo> gpus) {
        List<String> labels = gpus.stream().map(g -> g.name() + " · " + g.address()).toList();
        ChoiceDialog<String> d = new ChoiceDialog<>(labels.get(0), labels);
        d.initOwner(vm.owner());
        d.setTitle(ui.i18n().get("vm.gpu.detach"));
        d.setHeaderText(ui.i18n().get("vm.gpu.pick"));
        ui.theme().style(d.getDialogPane().getScene());
        return d.showAndWait().map(l -> gpus.get(labels.indexOf(l)));
    }

    /** The passthrough wizard, with the selected node (or SSH host, or this computer) preselected. */
    void passthrough() {
        PassthroughWizard.open(ui, passthrough, owner.get(), selected.get().flatMap(ShellFeatures::preselection));
    }

    /** "Pass through to VM…" on a GPU of the tree. */
    void passThrough(ConnectionInfo c, GpuInfo gpu) {
        PassthroughWizard.open(ui, passthrough, owner.get(), Optional.of(Preselection.node(c, gpu.node(),
                Optional.of(gpu.address()))));
    }

    /** "Pass through to VM…" on a GPU of the monitor's fleet. */
    private void passThrough(FleetGpu gpu) {
        Optional<PciAddress> address = gpu.address().flatMap(ShellFeatures::address);
        Optional<Preselection> pre = gpu.connectionInfo().map(c -> Preselection.node(c, gpu.host(), address));
        PassthroughWizard.open(ui, passthrough, owner.get(), pre);
    }

    void analyseListing() {
        AnalyseListing.open(ui, passthrough, owner.get());
    }

    /** File → Diagnose a failed VM start…. */
    void diagnose() {
        DiagnoseWindow.open(ui, diagnosis, owner.get());
    }

    /** Rollback of an applied passthrough plan on the selected host (this computer when nothing else is). */
    void rollback() {
        HostTarget host = selected.get().flatMap(ShellFeatures::host).orElse(new HostTarget.ThisComputer());
        RollbackWindow.open(ui, passthrough, owner.get(), host);
    }

    void createVm() {
        Optional<CreateVmWizard.Preselection> pre = selected.get().flatMap(i -> i.connection()
                .filter(c -> c.kind() != ConnectionInfo.Kind.SSH)
                .map(c -> i.node().map(n -> CreateVmWizard.Preselection.node(c, n))
                        .orElse(new CreateVmWizard.Preselection(Optional.of(c), Optional.empty(), Optional.empty()))));
        CreateVmWizard.open(ui, vmCreation, owner.get(), pre);
    }

    /** "Create VM…" on a node of the tree. */
    void createVm(ConnectionInfo c, String node) {
        CreateVmWizard.open(ui, vmCreation, owner.get(), Optional.of(CreateVmWizard.Preselection.node(c, node)));
    }

    /** "Show its charts" on a GPU of the tree: the GPU monitor's charts of that GPU. */
    void gpuCharts(ConnectionInfo c, io.gpuforge.domain.GpuInfo g) {
        gpuMonitor();
        monitor.chartsOf(c.id(), g.node(), g.address().toString());
    }

    void gpuMonitor() {
        if (monitor != null && monitor.isShowing()) {
            monitor.toFront();
            return;
        }
        monitor = GpuMonitor.open(ui, monitorServices, owner.get(), Optional.of(this::passThrough));
    }

    /** The welcome page as a tab (Help → Welcome, and at start when nothing is configured). */
    Page welcome(WelcomeActions actions) {
        return WelcomePage.page(ui, firstRun, actions);
    }

    /** Whether the welcome page opens at start; blocking (reads the saved connections): off the FX thread. */
    boolean welcomeAtStart() throws Exception {
        return firstRun.showWelcomeAtStart();
    }

    void dispose() {
        GpuMonitor m = monitor;
        monitor = null;
        if (m != null) {
            if (Platform.isFxApplicationThread()) {
                m.close();
            } else {
                Platform.runLater(m::close);
            }
        }
    }

    private static Optional<Preselection> preselection(NavItem item) {
        if (item.id().equals(NavItem.thisComputer().id())) {
            return Optional.of(Preselection.host(new HostTarget.ThisComputer(), Optional.empty()));
        }
        return item.connection().flatMap(c -> {
            if (c.kind() == ConnectionInfo.Kind.SSH) {
                return Optional.of(Preselection.host(new HostTarget.Saved(c), Optional.empty()));
            }
            return item.node().map(n -> Preselection.node(c, n, Optional.empty()));
        });
    }

    private static Optional<HostTarget> host(NavItem item) {
        return item.connection().flatMap(c -> c.kind() == ConnectionInfo.Kind.SSH
                ? Optional.<HostTarget>of(new HostTarget.Saved(c))
                : item.node().map(n -> new HostTarget.Linked(c, n)));
    }

    private static Optional<PciAddress> address(String text) {
        try {
            return Optional.of(PciAddress.parse(text));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }
}
