package io.gpuforge.ui.shell;

import io.gpuforge.domain.pci.PciAddress;
import io.gpuforge.app.AppContext;
import io.gpuforge.app.desktop.DesktopOpener;
import io.gpuforge.app.settings.Settings;
import io.gpuforge.domain.connections.ConnectionInfo;
import io.gpuforge.domain.GpuInfo;
import io.gpuforge.domain.host.HostSummary;
import io.gpuforge.ui.cluster.ClusterModel;
import io.gpuforge.ui.cluster.ClusterServices;
import io.gpuforge.ui.cluster.HypervisorPages;
import io.gpuforge.ui.common.FxUserPrompts;
import io.gpuforge.ui.common.I18n;
import io.gpuforge.ui.common.LayoutBeforeCss;
import io.gpuforge.ui.common.NavItem;
import io.gpuforge.ui.common.Page;
import io.gpuforge.ui.common.PageExtensions;
import io.gpuforge.ui.common.PageFactory;
import io.gpuforge.ui.common.Pulses;
import io.gpuforge.ui.common.ShowsIommu;
import io.gpuforge.ui.common.UiContext;
import io.gpuforge.ui.connections.AddConnectionViewModel;
import io.gpuforge.ui.host.HostSummaryViewModel;
import io.gpuforge.ui.host.LocalHostPages;
import io.gpuforge.ui.host.SshHostPages;
import io.gpuforge.ui.preferences.PreferencesDialog;
import io.gpuforge.ui.preferences.PreferencesViewModel;
import io.gpuforge.ui.tasks.TaskLogView;
import io.gpuforge.ui.tasks.TaskLogViewModel;
import io.gpuforge.ui.welcome.WelcomeActions;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import javafx.application.Platform;
import javafx.geometry.Orientation;
import javafx.scene.Parent;
import javafx.scene.Scene;
import javafx.scene.control.SplitPane;
import javafx.scene.control.Tab;
import javafx.scene.control.TreeItem;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.VBox;
import javafx.stage.Stage;

/**
 * The main window: menu bar and toolbar on top, navigation tree on the left (every connection with its nodes, VMs
 * and GPUs, kept up to date from each connection's change feed), tabs of the opened items in the centre, tasks,
 * the task log and events at the bottom.
 */
public final class MainWindow {

    private final UiContext ui;
    private final NavigationTree navigation;
    private final ConnectionDialogs connectionDialogs;
    private final ContentArea content = new ContentArea();
    private final ActivityPanel activity;
    private final LocalHostPages local;
    private final SshHostPages sshHosts;
    private final HypervisorPages hypervisors;
    private final PageExtensions extensions = new PageExtensions();
    private final List<PageFactory> pages;
    private final BorderPane root = new BorderPane();
    private final SplitPane vertical;
    private final SplitPane horizontal;
    private final Consumer<Settings> settingsListener;
    private final ConnectionWatch watches;
    private final TreeMenus menus;
    private Stage stage;
    private final ShellFeatures features;
    private WindowGeometry geometry;
    private PreferencesDialog preferences;

    public MainWindow(UiContext ui) {
        this.ui = ui;
        I18n i18n = ui.i18n();
        AppContext app = ui.app();
        navigation = new NavigationTree(i18n);
        navigation.followReadings(app.fleet());
        activity = new ActivityPanel(i18n, ui.taskMonitor(), app.events(), ui.tasks(),
                new TaskLogViewModel(app.taskLog(), ui.tasks(), i18n));
        local = new LocalHostPages(ui, app.hosts(), this::onLocalSummary, facts -> navigation.showGpus(true,
                Optional.empty(), facts));
        sshHosts = new SshHostPages(ui, app.hosts(), (c, facts) -> navigation.showGpus(false, Optional.of(c), facts));
        hypervisors = new HypervisorPages(ui, ClusterServices.of(app), (c, facts) -> navigation.showGpus(false,
                Optional.of(c), facts), extensions, () -> stage, Optional.of(app.demoLab()));
        pages = List.of(local, sshHosts, hypervisors);
        watches = new ConnectionWatch(hypervisors, navigation);
        connectionDialogs = new ConnectionDialogs(ui, () -> stage, this::added, this::edited, this::removed);
        menus = new TreeMenus(i18n, hypervisors, new TreeMenus.Handlers(this::open, this::refresh,
                connectionDialogs::edit, connectionDialogs::remove, connectionDialogs::linkHost));
        navigation.menus(menus::of);

        features = new ShellFeatures(ui, () -> stage, this::selectedItem);
        features.register(extensions);
        features.whyFailed(activity.taskLog());
        menus.onPassThrough(features::passThrough);
        menus.onCreateVm(features::createVm);
        menus.onCharts(features::gpuCharts);
        ShellActions actions = new ShellActions(i18n, new ShellActions.Handlers(() -> connectionDialogs.add(Optional.empty()),
                this::refresh, this::showPreferences, this::quit, this::openLogFolder, this::showAbout,
                () -> selectedConnection().ifPresent(connectionDialogs::edit),
                () -> selectedConnection().ifPresent(connectionDialogs::remove), activity::showTaskLog,
                features::passthrough, features::rollback, features::analyseListing, features::diagnose, features::createVm,
                features::gpuMonitor, this::showWelcome));
        root.setTop(new VBox(actions.menuBar(), actions.toolBar()));
        horizontal = new SplitPane(navigation.box(), content.view());
        horizontal.setId("main-split");
        SplitPane.setResizableWithParent(navigation.box(), false);
        horizontal.setDividerPositions(app.settings().current().navigationDivider() == null ? WindowGeometry.DEFAULT_DIVIDER
                : app.settings().current().navigationDivider());
        vertical = new SplitPane(horizontal, activity.view());
        vertical.setOrientation(Orientation.VERTICAL);
        vertical.setDividerPositions(0.78);
        SplitPane.setResizableWithParent(activity.view(), false);
        root.setCenter(vertical);
        root.setId("main-root");
        root.getStyleClass().add("main-window");

        navigation.selectedItemProperty().addListener((o, old, now) -> {
            if (now != null && !navigation.syncing()) {
                open(now.getValue());
            }
        });
        settingsListener = s -> Platform.runLater(() -> applySettings(s));
        app.settings().addListener(settingsListener);
        app.prompts().use(new FxUserPrompts(ui.dialogs(), i18n));
    }

    /**
     * Puts the window on {@code stage}, restores its geometry and starts loading "This computer" and the connections.
     * A stage that already shows the {@link StartingFrame} keeps its scene, place and size: the window fills it in.
     */
    public void show(Stage target) {
        this.stage = target;
        Scene scene = target.getScene();
        if (scene == null) {
            scene = new Scene(root);
            target.setScene(scene);
        } else {
            scene.setRoot(root);
        }
        ui.theme().style(scene);
        List<Parent> virtualised = new ArrayList<>(activity.virtualised());
        virtualised.add(navigation.view());
        new LayoutBeforeCss(virtualised).install(scene);
        target.titleProperty().bind(ui.i18n().text("app.title"));
        if (!target.isShowing()) {
            WindowGeometry.restore(target, ui.app().settings().current().window());
        }
        geometry = new WindowGeometry(target, ui.app().settings());
        geometry.track();
        horizontal.getDividers().get(0).positionProperty().addListener((o, a, b) ->
                ui.app().settings().update(s -> s.withNavigationDivider(b.doubleValue())));
        target.show();
        navigation.selectThisComputer();
        local.start();
        ui.tasks().supply(ui.i18n().get("task.loadConnections"), ui.app().connections()::all).internal()
                .onSuccess(list -> list.forEach(this::showConnection))
                .onError(t -> ui.app().events().error(ui.i18n().get("event.source.connections"),
                        ui.i18n().get("event.connectionsUnreadable", t.getMessage())))
                .start();
        ui.tasks().supply(ui.i18n().get("task.loadConnections"), features::welcomeAtStart).internal()
                .onSuccess(show -> {
                    if (show) {
                        showWelcome();
                    }
                })
                .start();
        ui.app().events().info(ui.i18n().get("event.source.app"), ui.i18n().get("event.started"));
        // once this window has laid itself out (its frame follows), the background threads give way to its threads;
        // not before: the first to lower itself loads JNA (about 0.1 s of processor time on a background thread)
        Pulses.afterNextLayout(scene, ui.app().executors()::giveWayToTheWindow);
    }

    /** The welcome page: the ways to begin (Help → Welcome; at start while nothing is configured). */
    public void showWelcome() {
        content.open(NavItem.thisComputer(), features.welcome(new WelcomeActions(
                navigation::selectThisComputer,
                () -> connectionDialogs.add(Optional.of(AddConnectionViewModel.Kind.PROXMOX)),
                () -> connectionDialogs.add(Optional.of(AddConnectionViewModel.Kind.LIBVIRT)),
                () -> connectionDialogs.add(Optional.of(AddConnectionViewModel.Kind.SSH)),
                features::analyseListing, this::addDemoLab)));
    }

    private void addDemoLab() {
        ui.tasks().supply(ui.i18n().get("task.loadConnections"), () -> {
            Optional<ConnectionInfo> existing = ui.app().connections().all().stream()
                    .filter(c -> c.kind() == ConnectionInfo.Kind.DEMO).findFirst();
            // named in the user's language ("演示实验室" in Chinese)
            return existing.isPresent() ? existing.get()
                    : ui.app().connections().addDemo(ui.i18n().get("welcome.demoLab.name"));
        }).onSuccess(c -> {
            if (!navigation.contains(c)) {
                showConnection(c);
            }
            navigation.select(c);
        }).start();
    }

    private Optional<NavItem> selectedItem() {
        TreeItem<NavItem> t = navigation.selectedItemProperty().get();
        return t == null ? Optional.empty() : Optional.of(t.getValue());
    }

    /** A connection goes into the tree; a hypervisor connection is read and watched, so its nodes and VMs appear. */
    private void showConnection(ConnectionInfo c) {
        navigation.addConnection(c);
        if (hypervisors.serves(c)) {
            watches.watch(c);
        }
    }

    private void applySettings(Settings s) {
        ui.theme().apply(s.theme());
        ui.i18n().setLocale(s.language().resolve(Locale.getDefault()));
    }

    private void open(NavItem item) {
        for (PageFactory f : pages) {
            Optional<Page> page = f.page(item);
            if (page.isPresent()) {
                content.open(item, page.get());
                if (item.kind() == NavItem.Kind.GPU) {
                    Tab t = content.view().getSelectionModel().getSelectedItem();
                    if (t != null && t.getContent() instanceof ShowsIommu) {
                        // the GPU's own row, selected, as "Open" promises
                        Optional<PciAddress> gpu = item.target().flatMap(x -> x.gpu()).map(GpuInfo::address);
                        if (gpu.isPresent()) {
                            ((ShowsIommu) t.getContent()).showIommu(gpu.get());
                        } else {
                            ((ShowsIommu) t.getContent()).showIommu();
                        }
                    }
                }
                return;
            }
        }
    }

    private Optional<ConnectionInfo> selectedConnection() {
        TreeItem<NavItem> t = navigation.selectedItemProperty().get();
        return t == null ? Optional.empty() : t.getValue().connection();
    }

    /** A connection the form added: into the tree, selected. */
    private void added(ConnectionInfo c) {
        showConnection(c);
        navigation.select(c);
    }

    /** A connection the form changed: its pages and session start over. */
    private void edited(ConnectionInfo before, ConnectionInfo saved) {
        forgetPages(before.id());
        navigation.updateConnection(saved);
        if (hypervisors.serves(saved)) {
            watches.watch(saved);
        }
    }

    /** A removed connection: its tree entry and pages go with it. */
    private void removed(ConnectionInfo c) {
        forgetPages(c.id());
        navigation.removeConnection(c.id());
    }

    private void forgetPages(long id) {
        watches.forget(id);
        content.close(key -> key.equals("tab-cluster-" + id) || key.startsWith("tab-node-" + id + "-")
                || key.startsWith("tab-vm-" + id + "-") || key.equals("tab-ssh-" + id));
        hypervisors.forget(id);
        sshHosts.forget(id);
    }

    private void onLocalSummary(HostSummary s) {
        if (s != null) {
            navigation.showLocalHost(s);
            ui.app().events().info(ui.i18n().get("connection.local"), ui.i18n().get("event.localFacts", s.hostname(),
                    ui.i18n().get("host.iommu." + s.iommu().json(), s.iommuGroups())));
        }
    }

    /** F5: every page that was shown or read is read again, whatever its kind; the tree follows. */
    public void refresh() {
        pages.forEach(PageFactory::refresh);
    }

    public void showPreferences() {
        if (preferences == null) {
            preferences = new PreferencesDialog(new PreferencesViewModel(ui.app().settings(), ui.app().secrets(),
                    ui.tasks(), url -> ui.app().webhook().test(url)), ui.i18n(), ui.dialogs(), stage);
            ui.theme().style(preferences.dialog().getDialogPane().getScene());
        }
        preferences.show();
    }

    private void showAbout() {
        ui.dialogs().showInfo("about.title", ui.i18n().get("about.text", ui.app().paths().configDir(),
                ui.app().paths().dataDir(), ui.app().paths().logDir()));
    }

    private void openLogFolder() {
        ui.tasks().supply(ui.i18n().get("task.openLogFolder"), () -> {
            new DesktopOpener(ui.app().executors()::startProgram).open(ui.app().paths().logDir());
            return Boolean.TRUE;
        }).onError(t -> ui.dialogs().showError("dialog.error.title",
                ui.i18n().get("logs.openFailed", ui.app().paths().logDir()), t)).start();
    }

    private void quit() {
        if (stage != null) {
            stage.close();
        }
        Platform.exit();
    }

    public PreferencesDialog preferencesDialog() {
        return preferences;
    }

    public BorderPane root() {
        return root;
    }

    public HostSummaryViewModel localHost() {
        return local.summary();
    }

    /**
     * Hook for the passthrough wizard: the tree's context menu of a GPU offers "Pass through to VM…" and calls
     * {@code action} with the GPU's connection and the GPU (FX thread). Hidden until set.
     */
    public void onPassThroughGpu(BiConsumer<ConnectionInfo, GpuInfo> action) {
        menus.onPassThrough(action);
    }

    /**
     * Hook for the VM creation wizard: the tree's context menu of a node offers "Create VM…" and calls
     * {@code action} with the connection and the node's name (FX thread). Hidden until set.
     */
    public void onCreateVm(BiConsumer<ConnectionInfo, String> action) {
        menus.onCreateVm(action);
    }

    /**
     * Where other features add buttons and tabs to VM and node pages (the GPU monitor's "GPU" tab, the passthrough
     * wizard's "Add or remove a GPU…" button); register right after construction.
     */
    public PageExtensions extensions() {
        return extensions;
    }

    /** The model of a hypervisor connection in the tree (tests, and features that read the same inventory). */
    public ClusterModel cluster(ConnectionInfo c) {
        return hypervisors.model(c);
    }

    /** The task log at the bottom. */
    public TaskLogView taskLog() {
        return activity.taskLog();
    }

    /** Brings the task log to the front. */
    public void showTaskLog() {
        activity.showTaskLog();
    }

    /** Detaches listeners from the long-lived services; call when the window closes. */
    public void dispose() {
        features.dispose();
        ui.app().prompts().clear();
        watches.dispose();
        navigation.dispose();
        activity.dispose();
        content.disposeAll();
        pages.forEach(PageFactory::dispose);
        ui.app().settings().removeListener(settingsListener);
        if (geometry != null) {
            geometry.detach();
        }
        if (stage != null) {
            stage.titleProperty().unbind();
        }
    }
}
