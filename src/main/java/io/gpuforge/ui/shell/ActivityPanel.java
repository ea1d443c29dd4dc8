package io.gpuforge.ui.shell;

import io.gpuforge.app.monitor.EventLog;
import io.gpuforge.domain.tasks.AppEvent;
import io.gpuforge.ui.common.BackgroundTasks;
import io.gpuforge.ui.common.I18n;
import io.gpuforge.ui.common.Icons;
import io.gpuforge.ui.common.TaskMonitor;
import io.gpuforge.ui.tasks.TaskLogView;
import io.gpuforge.ui.tasks.TaskLogViewModel;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Consumer;
import javafx.application.Platform;
import javafx.beans.binding.Bindings;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import javafx.scene.Parent;
import javafx.scene.control.ListCell;
import javafx.scene.control.ListView;
import javafx.scene.control.Tab;
import javafx.scene.control.TabPane;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.control.Label;
import org.kordamp.ikonli.feather.Feather;

/** The bottom panel: background tasks of this session, and the event log (kept across runs). */
final class ActivityPanel {

    static final int EVENTS_SHOWN = 500;
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss")
            .withZone(ZoneId.systemDefault());

    private final TabPane tabs = new TabPane();
    private final ObservableList<AppEvent> events = FXCollections.observableArrayList();
    private final Consumer<AppEvent> listener = e -> Platform.runLater(() -> add(e));
    private final EventLog log;

    private final TaskLogView taskLog;
    private final Tab taskLogTab = new Tab();
    /** The tasks table and the event list: they fill in from the background. */
    private final List<Parent> virtualised;

    ActivityPanel(I18n i18n, TaskMonitor monitor, EventLog log, BackgroundTasks tasks, TaskLogViewModel taskLogModel) {
        this.log = log;
        tabs.setId("activity");
        tabs.setTabClosingPolicy(TabPane.TabClosingPolicy.UNAVAILABLE);
        tabs.getStyleClass().add("activity");

        TableView<TaskMonitor.Entry> table = new TableView<>(monitor.shown());
        table.setId("tasks-table");
        TableColumn<TaskMonitor.Entry, String> name = new TableColumn<>();
        name.textProperty().bind(i18n.text("tasks.column.name"));
        name.setCellValueFactory(c -> new ReadOnlyStringWrapper(c.getValue().name()));
        name.setPrefWidth(420);
        TableColumn<TaskMonitor.Entry, String> started = new TableColumn<>();
        started.textProperty().bind(i18n.text("tasks.column.started"));
        started.setCellValueFactory(c -> new ReadOnlyStringWrapper(
                c.getValue().started().withNano(0).toString()));
        TableColumn<TaskMonitor.Entry, String> state = new TableColumn<>();
        state.textProperty().bind(i18n.text("tasks.column.state"));
        state.setCellValueFactory(c -> Bindings.createStringBinding(
                () -> i18n.get("tasks.state." + c.getValue().state().name().toLowerCase(Locale.ROOT)),
                c.getValue().stateProperty(), i18n.localeProperty()));
        state.setPrefWidth(140);
        table.getColumns().setAll(List.of(name, started, state));
        // the task's name takes the width the other columns leave (a libvirt URI, a long VM name): never cut short
        // beside empty space
        name.prefWidthProperty().bind(Bindings.max(420, table.widthProperty().subtract(started.widthProperty())
                .subtract(state.widthProperty()).subtract(28)));
        Label noTasks = new Label();
        noTasks.textProperty().bind(i18n.text("tasks.empty"));
        table.setPlaceholder(noTasks);
        Tab tasksTab = new Tab();
        tasksTab.setId("tab-tasks");
        tasksTab.textProperty().bind(i18n.text("tasks.title"));
        tasksTab.setGraphic(Icons.of(Feather.ACTIVITY));
        tasksTab.setContent(table);

        ListView<AppEvent> list = new ListView<>(events);
        list.setId("events-list");
        list.setCellFactory(lv -> new ListCell<>() {
            @Override
            protected void updateItem(AppEvent e, boolean empty) {
                super.updateItem(e, empty);
                getStyleClass().removeAll("event-warn", "event-error");
                if (empty || e == null) {
                    setText(null);
                    return;
                }
                setText(TIME.format(e.at()) + "  " + e.level() + "  " + e.source() + ": " + e.message());
                if (e.level() != AppEvent.Level.INFO) {
                    getStyleClass().add(e.level() == AppEvent.Level.WARN ? "event-warn" : "event-error");
                }
            }
        });
        Tab eventsTab = new Tab();
        eventsTab.setId("tab-events");
        eventsTab.textProperty().bind(i18n.text("events.title"));
        eventsTab.setGraphic(Icons.of(Feather.INFO));
        eventsTab.setContent(list);
        taskLog = new TaskLogView(taskLogModel, i18n);
        taskLogTab.setId("tab-task-log");
        taskLogTab.textProperty().bind(i18n.text("console.tasklog.title"));
        taskLogTab.setGraphic(Icons.of(Feather.LIST));
        taskLogTab.setContent(taskLog);
        tabs.getTabs().setAll(List.of(tasksTab, taskLogTab, eventsTab));
        virtualised = List.of(table, list, taskLog.table());
        taskLogModel.start();

        // Listen first, then load the history: an event logged in between is shown once, not lost.
        log.addListener(listener);
        tasks.supply(i18n.get("events.loading"), () -> log.recent(EVENTS_SHOWN)).internal()
                .onSuccess(earlier -> {
                    Set<Long> seen = new HashSet<>();
                    events.forEach(e -> seen.add(e.id()));
                    events.addAll(0, earlier.stream().filter(e -> !seen.contains(e.id())).toList());
                    if (!events.isEmpty()) {
                        list.scrollTo(events.size() - 1);
                    }
                })
                .onError(t -> add(AppEvent.of(AppEvent.Level.WARN, "events",
                        i18n.get("events.history.failed", t.getMessage()))))
                .start();
    }

    private void add(AppEvent e) {
        events.add(e);
        if (events.size() > EVENTS_SHOWN) {
            events.remove(0, events.size() - EVENTS_SHOWN);
        }
    }

    ObservableList<AppEvent> events() {
        return events;
    }

    /** Brings the task log to the front. */
    void showTaskLog() {
        tabs.getSelectionModel().select(taskLogTab);
    }

    /** Its tables and list, which fill in from the background ({@code LayoutBeforeCss}). */
    List<Parent> virtualised() {
        return virtualised;
    }

    TaskLogView taskLog() {
        return taskLog;
    }

    void dispose() {
        log.removeListener(listener);
        taskLog.dispose();
    }

    TabPane view() {
        return tabs;
    }
}
