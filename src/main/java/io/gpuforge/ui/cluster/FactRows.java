package io.gpuforge.ui.cluster;

import io.gpuforge.ui.common.I18n;
import io.gpuforge.ui.common.Wrapped;
import java.util.List;
import javafx.scene.control.Label;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.VBox;

/**
 * The facts of a VM's or a container's page, a row each in a grid: a muted name, then one value or a list of them
 * ("none" for an empty list), wrapped. Each call returns the next free row. FX thread.
 */
final class FactRows {

    private final I18n i18n;
    private final GridPane grid;

    FactRows(I18n i18n, GridPane grid) {
        this.i18n = i18n;
        this.grid = grid;
    }

    int fact(int row, String key, String id, String value) {
        Label v = Wrapped.wrapped(new Label(value));
        v.setId(id);
        grid.addRow(row, name(key), v);
        return row + 1;
    }

    int list(int row, String key, String id, List<String> items) {
        VBox values = new VBox(2);
        values.setId(id);
        if (items.isEmpty()) {
            values.getChildren().add(new Label(i18n.get("console.vm.none")));
        }
        items.forEach(s -> values.getChildren().add(Wrapped.wrapped(new Label(s))));
        grid.addRow(row, name(key), values);
        return row + 1;
    }

    private Label name(String key) {
        Label name = new Label(i18n.get(key));
        name.getStyleClass().add("text-muted");
        return name;
    }
}
