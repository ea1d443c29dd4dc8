package io.gpuforge.ui.tasks;

import io.gpuforge.domain.vm.VmRef;
import io.gpuforge.app.tasks.TaskLog;
import io.gpuforge.domain.tasks.TaskRecord;
import io.gpuforge.ui.common.Disposable;
import io.gpuforge.ui.common.I18n;
import io.gpuforge.ui.common.Icons;
import io.gpuforge.ui.common.ViewScope;
import java.io.File;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.function.Function;
import javafx.geometry.Insets;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableRow;
import javafx.scene.control.TableView;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;
import javafx.stage.FileChooser;
import org.kordamp.ikonli.feather.Feather;

/**
 * The task log: every task GPUForge ran, newest first, with when, how long, how it is going or ended, what, on
 * which target and connection, and as whom. A double-click opens a task's log; "Export…" writes the whole log as
 * CSV or JSON lines for a central log system.
 */
public final class TaskLogView extends VBox implements Disposable {

    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss")
            .withZone(ZoneId.systemDefault());
    private final ViewScope scope = new ViewScope();
    private final TaskLogViewModel model;
    private final TableView<TaskRecord> table = new TableView<>();
    private final Button why = new Button();
    private java.util.function.BiConsumer<Long, VmRef> whyFailed = (c, vm) -> { };
    private final I18n i18n;

    public TaskLogView(TaskLogViewModel model, I18n i18n) {
        this.model = model;
        this.i18n = i18n;
        setId("task-log");
        setPadding(new Insets(4));
        setSpacing(4);
        table.setId("task-log-table");
        table.setItems(model.rows());
        table.getColumns().setAll(List.of(
                col("console.tasklog.started", 175, t -> TIME.format(t.started())),
                col("console.tasklog.duration", 100, t -> duration(t.duration(Instant.now()))),
                col("console.tasklog.status", 150, t -> TaskLogViewModel.progress(t, i18n)),
                col("console.tasklog.action", 150, t -> actionLabel(t.action(), i18n)),
                col("console.tasklog.target", 150, TaskRecord::target),
                col("console.tasklog.connection", 120, TaskRecord::connection),
                col("console.tasklog.user", 170, t -> t.user().equals(t.actingAs()) ? t.user()
                        : t.user() + " (" + t.actingAs() + ")"),
                col("console.tasklog.description", 300, TaskRecord::description)));
        table.setRowFactory(tv -> {
            TableRow<TaskRecord> row = new TableRow<>() {
                @Override
                protected void updateItem(TaskRecord t, boolean empty) {
                    super.updateItem(t, empty);
                    getStyleClass().removeAll("task-failed", "task-running");
                    if (!empty && t != null && t.status() == TaskRecord.Status.FAILED) {
                        getStyleClass().add("task-failed");
                    } else if (!empty && t != null && t.status() == TaskRecord.Status.RUNNING) {
                        getStyleClass().add("task-running");
                    }
                }
            };
            row.setOnMouseClicked(e -> {
                if (e.getClickCount() == 2 && !row.isEmpty()) {
                    openLog(row.getItem());
                }
            });
            return row;
        });
        Label empty = new Label();
        scope.bind(empty.textProperty(), i18n.text("console.tasklog.empty"));
        table.setPlaceholder(empty);
        Button export = new Button();
        export.setId("task-log-export");
        scope.bind(export.textProperty(), i18n.text("console.tasklog.export"));
        export.setGraphic(Icons.of(Feather.DOWNLOAD));
        export.setOnAction(e -> chooseExport());
        Button open = new Button();
        open.setId("task-log-open");
        scope.bind(open.textProperty(), i18n.text("console.tasklog.openLog"));
        open.setGraphic(Icons.of(Feather.FILE_TEXT));
        open.disableProperty().bind(table.getSelectionModel().selectedItemProperty().isNull());
        open.setOnAction(e -> openLog(table.getSelectionModel().getSelectedItem()));
        why.setId("task-log-why");
        scope.bind(why.textProperty(), i18n.text("diagnose.vm.action"));
        why.setGraphic(Icons.of(Feather.HELP_CIRCLE));
        why.disableProperty().bind(javafx.beans.binding.Bindings.createBooleanBinding(() -> failedStart(
                table.getSelectionModel().getSelectedItem()).isEmpty(), table.getSelectionModel().selectedItemProperty()));
        why.setOnAction(e -> failedStart(table.getSelectionModel().getSelectedItem())
                .ifPresent(vm -> whyFailed.accept(table.getSelectionModel().getSelectedItem().connectionId(), vm)));
        Label message = new Label();
        message.setId("task-log-message");
        scope.bind(message.textProperty(), model.messageProperty());
        Region spacer = new Region();
        HBox.setHgrow(spacer, Priority.ALWAYS);
        HBox bar = new HBox(8, open, why, export, spacer, message);
        VBox.setVgrow(table, Priority.ALWAYS);
        getChildren().setAll(bar, table);
    }

    static String duration(Duration d) {
        long s = d.getSeconds();
        return s < 60 ? s + " s" : s < 3600 ? s / 60 + " min " + s % 60 + " s" : s / 3600 + " h " + s % 3600 / 60 + " min";
    }

    /** The task's action as the user reads it. */
    static String actionLabel(String action, I18n i18n) {
        switch (action) {
            case TaskLog.VM_START:
                return i18n.get("console.action.vmStart");
            case TaskLog.VM_SHUTDOWN:
                return i18n.get("console.action.vmShutdown");
            case TaskLog.VM_REBOOT:
                return i18n.get("console.action.vmReboot");
            case TaskLog.VM_STOP:
                return i18n.get("console.action.vmStop");
            case TaskLog.VM_CLONE:
                return i18n.get("console.action.vmClone");
            case TaskLog.VM_TEMPLATE:
                return i18n.get("console.action.vmTemplate");
            case TaskLog.VM_DELETE:
                return i18n.get("console.action.vmDelete");
            case TaskLog.VM_CREATE:
                return i18n.get("console.action.vmCreate");
            case TaskLog.NODE_REBOOT:
                return i18n.get("console.action.nodeReboot");
            case TaskLog.HOST_APPLY:
                return i18n.get("console.action.hostApply");
            case TaskLog.CT_CREATE:
                return i18n.get("console.action.ctCreate");
            case TaskLog.CT_START:
                return i18n.get("console.action.ctStart");
            case TaskLog.CT_SHUTDOWN:
                return i18n.get("console.action.ctShutdown");
            case TaskLog.CT_STOP:
                return i18n.get("console.action.ctStop");
            case TaskLog.CT_DELETE:
                return i18n.get("console.action.ctDelete");
            default:
                return action;
        }
    }

    private TableColumn<TaskRecord, String> col(String key, double width, Function<TaskRecord, String> f) {
        return scope.textColumn(i18n, key, width, f);
    }

    /** Shows one task's log in a window of its own (not waiting: the window keeps drawing). */
    public void openLog(TaskRecord t) {
        if (t != null) {
            new TaskLogDialog(t, i18n, getScene() == null ? null : getScene().getWindow()).show();
        }
    }

    private void chooseExport() {
        FileChooser chooser = new FileChooser();
        chooser.setTitle(i18n.get("console.tasklog.export"));
        chooser.getExtensionFilters().setAll(new FileChooser.ExtensionFilter("JSON lines", "*.jsonl"),
                new FileChooser.ExtensionFilter("CSV", "*.csv"));
        chooser.setInitialFileName("gpuforge-tasks.jsonl");
        File f = chooser.showSaveDialog(getScene() == null ? null : getScene().getWindow());
        if (f != null) {
            model.export(f.toPath(), () -> { });
        }
    }

    /** What "Why did it fail?" does for a failed VM start: the task's connection id and the VM. */
    public void onWhyFailed(java.util.function.BiConsumer<Long, VmRef> action) {
        whyFailed = action;
    }

    /** The VM of a failed start ({@code 120@pve-3090}); empty for any other task. */
    static java.util.Optional<VmRef> failedStart(TaskRecord t) {
        if (t == null || t.status() != TaskRecord.Status.FAILED || !t.action().equals(TaskLog.VM_START)) {
            return java.util.Optional.empty();
        }
        int at = t.target().indexOf('@');
        return at <= 0 || at == t.target().length() - 1 ? java.util.Optional.empty()
                : java.util.Optional.of(new VmRef(t.target().substring(at + 1), t.target().substring(0, at)));
    }

    public TaskLogViewModel model() {
        return model;
    }

    public TableView<TaskRecord> table() {
        return table;
    }

    @Override
    public void dispose() {
        scope.dispose();
        model.dispose();
    }
}
