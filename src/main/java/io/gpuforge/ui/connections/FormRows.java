package io.gpuforge.ui.connections;

import javafx.beans.value.ObservableBooleanValue;
import javafx.beans.value.ObservableValue;
import javafx.scene.Node;
import javafx.scene.control.Label;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.Region;

/**
 * The rows of a form on a grid: a label and a control, and under the control the problem of the field (shown only
 * when there is one); a row can be shown only for some kinds of connection.
 */
final class FormRows {

    private final GridPane grid;
    private int row;

    FormRows(GridPane grid) {
        this.grid = grid;
    }

    /** A row; {@code problem} (may be null) is the field's problem text, {@code shown} (may be null) when it shows. */
    void add(String labelText, Node control, ObservableValue<String> problem, ObservableBooleanValue shown,
             String problemId) {
        Label label = new Label(labelText);
        label.setLabelFor(control);
        label.setMinWidth(Region.USE_PREF_SIZE); // never "…": the field column gives way instead
        grid.add(label, 0, row);
        grid.add(control, 1, row);
        show(shown, label, control);
        row++;
        if (problem != null) {
            Label p = new Label();
            p.setId(problemId);
            p.getStyleClass().addAll("field-problem", "danger");
            p.setWrapText(true);
            p.textProperty().bind(problem);
            p.visibleProperty().bind(shown == null ? p.textProperty().isNotEmpty()
                    : p.textProperty().isNotEmpty().and(shown));
            p.managedProperty().bind(p.visibleProperty());
            grid.add(p, 1, row);
            row++;
        }
    }

    /** A node spanning both columns. */
    void wide(Node n, ObservableBooleanValue shown) {
        grid.add(n, 0, row, 2, 1);
        show(shown, n);
        row++;
    }

    /** A node in the control column only. */
    void right(Node n, ObservableBooleanValue shown) {
        grid.add(n, 1, row);
        show(shown, n);
        row++;
    }

    private static void show(ObservableBooleanValue shown, Node... nodes) {
        if (shown == null) {
            return;
        }
        for (Node n : nodes) {
            n.visibleProperty().bind(shown);
            n.managedProperty().bind(shown);
        }
    }
}
