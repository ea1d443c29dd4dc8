package io.gpuforge.ui.monitor;

import io.gpuforge.app.monitor.GpuFleet;
import java.util.function.Predicate;
import io.gpuforge.app.monitor.ServiceBeacon;
import io.gpuforge.domain.telemetry.FleetGpu;
import io.gpuforge.ui.common.Disposable;
import io.gpuforge.ui.common.Icons;
import io.gpuforge.ui.common.UiContext;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import javafx.animation.Animation;
import javafx.animation.KeyFrame;
import javafx.animation.Timeline;
import javafx.geometry.Insets;
import javafx.scene.Node;
import javafx.scene.control.Label;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;
import javafx.util.Duration;
import javafx.scene.Scene;
import javafx.scene.control.Tab;
import javafx.scene.control.TabPane;
import javafx.stage.Stage;
import javafx.stage.Window;
import org.kordamp.ikonli.feather.Feather;

/**
 * The GPU monitor window: charts of the chosen GPUs, the fleet (every GPU on every connection), alert rules and the
 * alerts that fired, and the cost view. Opened by the main window's "GPU monitor" button and menu entry through
 * {@link #open}; it watches every connection's GPUs while it is open and stops when it closes.
 */
public final class GpuMonitor {

    private static final DateTimeFormatter SINCE = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");
    private final UiContext ui;
    private final Stage stage = new Stage();
    private final TabPane tabs = new TabPane();
    private final Tab chartsTab = new Tab();
    private final Tab fleetTab = new Tab();
    private final Tab alertsTab = new Tab();
    private final Tab costTab = new Tab();
    private final GpuChartsView charts;
    private final FleetView fleet;
    private final AlertsView alerts;
    private final CostView cost;
    private final AlertNotifier notifier;
    /** Says so while gpuforge serve samples into this store and the window reads its readings. */
    private final Label service = new Label();
    /** What it works through, handed in by whoever opens it; its GPUs are {@code services.fleet()}. */
    private final MonitorServices services;
    private final GpuFleet gpuFleet;
    /** Waits for the fleet to read the GPU a "Show its charts" asked for, and which; null when none is awaited. */
    private GpuFleet.Subscription pendingCharts;
    private Predicate<FleetGpu> awaitedCharts;
    private final Timeline serviceCheck = new Timeline(new KeyFrame(Duration.seconds(1), e -> showService()));

    private GpuMonitor(UiContext ui, MonitorServices services, Window owner,
                       Optional<Consumer<FleetGpu>> passThrough) {
        this.ui = ui;
        this.services = services;
        this.gpuFleet = services.fleet();
        if (owner != null) {
            stage.initOwner(owner);
        }
        stage.titleProperty().bind(ui.i18n().text("monitor.title"));
        tabs.setId("monitor-tabs");
        tabs.setTabClosingPolicy(TabPane.TabClosingPolicy.UNAVAILABLE);
        charts = new GpuChartsView(ui, services, new Showing(tabs, chartsTab.selectedProperty()).property(), g -> true, true);
        fleet = new FleetView(ui, services, new Showing(tabs, fleetTab.selectedProperty()).property(), this::powerLimit,
                this::chartsOf, passThrough);
        alerts = new AlertsView(ui, services);
        cost = new CostView(ui, services);
        tab(chartsTab, "monitor-tab-charts", "monitor.tab.charts", Feather.ACTIVITY, charts);
        tab(fleetTab, "monitor-tab-fleet", "monitor.tab.fleet", Feather.GRID, fleet);
        tab(alertsTab, "monitor-tab-alerts", "monitor.tab.alerts", Feather.BELL, alerts);
        tab(costTab, "monitor-tab-cost", "monitor.tab.cost", Feather.DOLLAR_SIGN, cost);
        tabs.getTabs().setAll(List.of(chartsTab, fleetTab, alertsTab, costTab));
        alertsTab.selectedProperty().addListener((o, a, now) -> {
            if (now) {
                alerts.refreshScopes();
            }
        });
        service.setId("monitor-service");
        service.getStyleClass().addAll("text-small", "banner-info");
        service.setWrapText(true);
        service.setMaxWidth(Double.MAX_VALUE);
        service.setPadding(new Insets(4, 8, 4, 8));
        service.managedProperty().bind(service.visibleProperty());
        showService();
        serviceCheck.setCycleCount(Animation.INDEFINITE);
        serviceCheck.play();
        VBox root = new VBox(service, tabs);
        VBox.setVgrow(tabs, Priority.ALWAYS);
        Scene scene = new Scene(root, 1280, 760);
        ui.theme().style(scene);
        stage.setScene(scene);
        notifier = new AlertNotifier(ui, services, stage);
        stage.setOnHidden(e -> dispose());
    }

    /**
     * Opens the GPU monitor over {@code owner} (the main window). {@code passThrough} is the passthrough wizard's
     * entry for a GPU of the fleet ("Pass through to VM…"); without it that entry is shown disabled.
     */
    public static GpuMonitor open(UiContext ui, MonitorServices services, Window owner,
                                  Optional<Consumer<FleetGpu>> passThrough) {
        GpuMonitor m = new GpuMonitor(Objects.requireNonNull(ui), Objects.requireNonNull(services), owner,
                Objects.requireNonNull(passThrough));
        m.stage.show();
        return m;
    }

    /** Opens the GPU monitor without the passthrough entry. */
    public static GpuMonitor open(UiContext ui, MonitorServices services, Window owner) {
        return open(ui, services, owner, Optional.empty());
    }

    private void showService() {
        Optional<ServiceBeacon.Info> s = gpuFleet.service();
        service.setVisible(s.isPresent());
        s.ifPresent(i -> service.setText(ui.i18n().get("monitor.service", Long.toString(i.pid()),
                SINCE.format(Instant.ofEpochMilli(i.startedMillis()).atZone(ZoneId.systemDefault())))));
    }

    private void tab(Tab t, String id, String key, Feather icon, Node content) {
        t.setId(id);
        t.textProperty().bind(ui.i18n().text(key));
        t.setGraphic(Icons.of(icon));
        t.setContent(content);
    }

    private void powerLimit(FleetGpu g) {
        new PowerLimitDialog(ui, services, stage, g).show();
    }

    /** "Open its charts": the charts tab, showing that GPU alone. */
    void chartsOf(FleetGpu g) {
        tabs.getSelectionModel().select(chartsTab);
        charts.picker().choose(x -> GpuPicker.key(x).equals(GpuPicker.key(g)), gpuFleet.gpus());
    }

    /**
     * "Show its charts" of a GPU of the tree: the charts tab with that GPU alone (by its connection, node and
     * address), once the fleet has read it when it has not yet.
     */
    public void chartsOf(long connectionId, String node, String address) {
        Predicate<FleetGpu> which = g -> g.connectionInfo().map(c -> c.id() == connectionId).orElse(false)
                && g.host().equals(node) && g.address().map(address::equalsIgnoreCase).orElse(false);
        tabs.getSelectionModel().select(chartsTab);
        stopWaitingForCharts();
        if (!chooseIfListed(which)) {
            // told on a telemetry thread; chosen on the FX thread, once, unless another GPU was asked for since
            awaitedCharts = which;
            pendingCharts = gpuFleet.observe(() -> {
                if (gpuFleet.gpus().stream().anyMatch(which)) {
                    javafx.application.Platform.runLater(() -> {
                        if (awaitedCharts == which && chooseIfListed(which)) {
                            stopWaitingForCharts();
                        }
                    });
                }
            });
        }
    }

    /** Charts the GPUs {@code which} accepts if the fleet lists one; whether it did. */
    private boolean chooseIfListed(Predicate<FleetGpu> which) {
        List<FleetGpu> gpus = gpuFleet.gpus();
        if (gpus.stream().noneMatch(which)) {
            return false;
        }
        charts.picker().choose(which, gpus);
        return true;
    }

    private void stopWaitingForCharts() {
        if (pendingCharts != null) {
            pendingCharts.close();
            pendingCharts = null;
            awaitedCharts = null;
        }
    }

    /** Shows the window again (it may be behind the main window). */
    public void toFront() {
        stage.show();
        stage.toFront();
    }

    public boolean isShowing() {
        return stage.isShowing();
    }

    public void close() {
        stage.close();
    }

    private void dispose() {
        serviceCheck.stop();
        stopWaitingForCharts();
        stage.titleProperty().unbind();
        notifier.dispose();
        for (Tab t : tabs.getTabs()) {
            Disposable.of(t.getContent());
        }
    }

    // for tests
    Stage stage() {
        return stage;
    }

    TabPane tabs() {
        return tabs;
    }

    GpuChartsView charts() {
        return charts;
    }

    FleetView fleet() {
        return fleet;
    }

    AlertsView alerts() {
        return alerts;
    }

    CostView cost() {
        return cost;
    }

    AlertNotifier notifier() {
        return notifier;
    }

    PowerLimitDialog powerLimitDialog(FleetGpu g) {
        return new PowerLimitDialog(ui, services, stage, g);
    }
}
