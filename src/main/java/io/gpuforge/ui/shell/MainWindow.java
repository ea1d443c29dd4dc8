package io.gpuforge.ui.shell;

import io.gpuforge.ui.common.NavItem;
import io.gpuforge.app.AppContext;
import io.gpuforge.domain.ConnectionInfo;
import io.gpuforge.domain.HostSummary;
import io.gpuforge.app.settings.Settings;
import io.gpuforge.ui.common.I18n;
import io.gpuforge.ui.cluster.HypervisorPages;
import io.gpuforge.ui.common.NavItem;
import io.gpuforge.ui.common.Page;
import io.gpuforge.ui.common.PageFactory;
import io.gpuforge.ui.common.ShowsIommu;
import io.gpuforge.ui.common.UiContext;
import io.gpuforge.ui.host.HostSummaryViewModel;
import io.gpuforge.ui.host.LocalHostPages;
import io.gpuforge.ui.host.SshHostPages;
import java.util.List;
import java.util.Optional;
import javafx.scene.control.Tab;
import io.gpuforge.ui.connections.AddConnectionDialog;
import io.gpuforge.ui.connections.AddConnectionViewModel;

import io.gpuforge.ui.preferences.PreferencesDialog;
import io.gpuforge.ui.preferences.PreferencesViewModel;
import java.util.function.Consumer;
import javafx.application.Platform;
import javafx.geometry.Orientation;
import javafx.scene.Scene;
import javafx.scene.control.SplitPane;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.VBox;
import javafx.stage.Stage;

/**
 * The main window: menu bar and toolbar on top, navigation tree on the left, tabs of the opened items
 * in the centre, tasks and events at the bottom.
 */
public final class MainWindow {

    private final UiContext ui;
    private final NavigationTree navigation;
    private final ContentArea content = new ContentArea();
    private final ActivityPanel activity;
    private final LocalHostPages local;
    private final SshHostPages sshHosts;
    private final HypervisorPages hypervisors;
    private final List<PageFactory> pages;
    private final BorderPane root = new BorderPane();
    private final SplitPane vertical;
    private final SplitPane horizontal;
    private final Consumer<Settings> settingsListener;
    private Stage stage;
    private WindowGeometry geometry;
    private PreferencesDialog preferences;

    public MainWindow(UiContext ui) {
        this.ui = ui;
        I18n i18n = ui.i18n();
        AppContext app = ui.app();
        navigation = new NavigationTree(i18n);
        activity = new ActivityPanel(i18n, ui.taskMonitor(), app.events(), ui.tasks());
        local = new LocalHostPages(ui, this::onLocalSummary, facts -> navigation.showGpus(true, Optional.empty(), facts));
        sshHosts = new SshHostPages(ui, (c, facts) -> navigation.showGpus(false, Optional.of(c), facts));
        hypervisors = new HypervisorPages(ui, (c, facts) -> navigation.showGpus(false, Optional.of(c), facts));
        pages = List.of(local, sshHosts, hypervisors);

        ShellActions actions = new ShellActions(i18n, new ShellActions.Handlers(this::addConnection,
                this::refresh, this::showPreferences, this::quit, this::openLogFolder, this::showAbout));
        root.setTop(new VBox(actions.menuBar(), actions.toolBar()));
        horizontal = new SplitPane(navigation.view(), content.view());
        horizontal.setId("main-split");
        SplitPane.setResizableWithParent(navigation.view(), false);
        horizontal.setDividerPositions(app.settings().current().navigationDivider() == null ? 0.26
                : app.settings().current().navigationDivider());
        vertical = new SplitPane(horizontal, activity.view());
        vertical.setOrientation(Orientation.VERTICAL);
        vertical.setDividerPositions(0.8);
        SplitPane.setResizableWithParent(activity.view(), false);
        root.setCenter(vertical);
        root.setId("main-root");
        root.getStyleClass().add("main-window");

        navigation.selectedItemProperty().addListener((o, old, now) -> {
            if (now != null) {
                open(now.getValue());
            }
        });
        settingsListener = s -> Platform.runLater(() -> applySettings(s));
        app.settings().addListener(settingsListener);
    }

    /** Puts the window on {@code stage}, restores its geometry and starts loading "This computer". */
    public void show(Stage target) {
        this.stage = target;
        Scene scene = new Scene(root);
        ui.theme().style(scene);
        target.setScene(scene);
        target.titleProperty().bind(ui.i18n().text("app.title"));
        WindowGeometry.restore(target, ui.app().settings().current().window());
        geometry = new WindowGeometry(target, ui.app().settings());
        geometry.track();
        horizontal.getDividers().get(0).positionProperty().addListener((o, a, b) ->
                ui.app().settings().update(s -> s.withNavigationDivider(b.doubleValue())));
        target.show();
        navigation.selectThisComputer();
        local.start();
        ui.tasks().supply(ui.i18n().get("task.loadConnections"), ui.app().connections()::all)
                .onSuccess(list -> list.forEach(navigation::addConnection))
                .onError(t -> ui.app().events().error(ui.i18n().get("event.source.connections"),
                        ui.i18n().get("event.connectionsUnreadable", t.getMessage())))
                .start();
        ui.app().events().info("app", "GPUForge started");
    }

    private void applySettings(Settings s) {
        ui.theme().apply(s.theme());
        ui.i18n().setLocale(s.language().resolve(java.util.Locale.getDefault()));
    }

    private void open(NavItem item) {
        for (PageFactory f : pages) {
            Optional<Page> page = f.page(item);
            if (page.isPresent()) {
                content.open(item, page.get());
                if (item.kind() == NavItem.Kind.GPU) {
                    Tab t = content.view().getSelectionModel().getSelectedItem();
                    if (t != null && t.getContent() instanceof ShowsIommu) {
                        ((ShowsIommu) t.getContent()).showIommu();
                    }
                }
                return;
            }
        }
    }

    private void addConnection() {
        new AddConnectionDialog(new AddConnectionViewModel(ui.app().connections(), ui.app().libvirt(), ui.app().proxmox(),
                ui.tasks(), ui.i18n()), ui.i18n(), stage, c -> {
            navigation.addConnection(c);
            navigation.select(c);
            ui.app().events().info(ui.i18n().get("event.source.connections"), ui.i18n().get("event.connectionAdded",
                    ui.i18n().get("connection.kind." + c.kind().db()), c.name(),
                    (c.username().isEmpty() ? "" : c.username() + "@") + c.address()));
        }).show();
    }

    private void onLocalSummary(HostSummary s) {
        if (s != null) {
            navigation.showLocalHost(s);
            ui.app().events().info(ui.i18n().get("connection.local"), ui.i18n().get("event.localFacts", s.hostname(),
                    ui.i18n().get("host.iommu." + s.iommu().json(), s.iommuGroups())));
        }
    }

    /** F5: every page that was shown or read is read again, whatever its kind. */
    public void refresh() {
        pages.forEach(PageFactory::refresh);
    }

    public void showPreferences() {
        if (preferences == null) {
            preferences = new PreferencesDialog(new PreferencesViewModel(ui.app().settings(), ui.app().secrets(),
                    ui.tasks()), ui.i18n(), ui.dialogs(), stage);
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
            new io.gpuforge.app.DesktopOpener().open(ui.app().paths().logDir());
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

    /** Detaches listeners from the long-lived services; call when the window closes. */
    public void dispose() {
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
