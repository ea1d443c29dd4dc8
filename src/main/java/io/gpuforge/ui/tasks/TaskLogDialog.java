package io.gpuforge.ui.tasks;

import io.gpuforge.domain.tasks.TaskRecord;
import io.gpuforge.ui.common.I18n;
import javafx.scene.control.ButtonBar;
import javafx.scene.control.ButtonType;
import javafx.scene.control.Dialog;
import javafx.scene.control.Label;
import javafx.scene.control.TextArea;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;
import javafx.stage.Window;

/** One task's log: what it was, how it ended, and every line its server wrote. */
final class TaskLogDialog {

    private final Dialog<ButtonType> dialog = new Dialog<>();

    TaskLogDialog(TaskRecord t, I18n i18n, Window owner) {
        if (owner != null) {
            dialog.initOwner(owner);
        }
        dialog.setTitle(i18n.get("console.tasklog.logTitle", t.description()));
        dialog.setResizable(true);
        dialog.getDialogPane().setId("task-log-dialog");
        Label head = new Label(t.description() + "\n" + TaskLogViewModel.progress(t, i18n)
                + t.upid().map(u -> "\n" + u).orElse(""));
        head.setWrapText(true);
        TextArea text = new TextArea(String.join("\n", t.log()));
        text.setId("task-log-text");
        text.setEditable(false);
        text.setPrefRowCount(18);
        text.setPrefColumnCount(90);
        VBox.setVgrow(text, Priority.ALWAYS);
        dialog.getDialogPane().setContent(new VBox(8, head, text));
        dialog.getDialogPane().getButtonTypes().setAll(new ButtonType(i18n.get("dialog.close"),
                ButtonBar.ButtonData.CANCEL_CLOSE));
    }

    void show() {
        dialog.show();
    }
}
