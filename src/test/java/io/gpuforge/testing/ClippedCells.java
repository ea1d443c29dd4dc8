package io.gpuforge.testing;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import javafx.scene.Node;
import javafx.scene.Parent;
import javafx.scene.control.IndexedCell;
import javafx.scene.control.TableCell;
import javafx.scene.control.TableColumnBase;
import javafx.scene.control.TableView;
import javafx.scene.control.TreeTableCell;
import javafx.scene.control.TreeTableView;
import javafx.scene.text.Text;

/**
 * The table cells a window shows cut short ("0000:01:0…") while their table has width to spare: every visible
 * {@link TableView} and {@link TreeTableView}, every cell whose text is shown elided, when the table's columns leave
 * more than {@value #SPARE} px of it empty. A column too narrow for its content then is a layout fault, not a small
 * window. FX thread.
 */
public final class ClippedCells {

    /** Width left over (beside a vertical scroll bar's) that a table is said to have to spare. */
    static final double SPARE = 24;

    private ClippedCells() {
    }

    public static List<String> in(Parent root) {
        List<String> out = new ArrayList<>();
        walk(root, out);
        return out;
    }

    private static void walk(Node n, List<String> out) {
        if (!n.isVisible()) {
            return;
        }
        if (n instanceof TableView<?> t) {
            check(n, spare(t.getWidth(), t.getVisibleLeafColumns()), out);
            return;
        }
        if (n instanceof TreeTableView<?> t) {
            check(n, spare(t.getWidth(), t.getVisibleLeafColumns()), out);
            return;
        }
        if (n instanceof Parent p) {
            p.getChildrenUnmodifiable().forEach(c -> walk(c, out));
        }
    }

    private static double spare(double width, List<? extends TableColumnBase<?, ?>> columns) {
        return width - columns.stream().mapToDouble(TableColumnBase::getWidth).sum() - SPARE;
    }

    private static void check(Node table, double spare, List<String> out) {
        if (spare <= 0) {
            return;
        }
        for (Node n : table.lookupAll(".indexed-cell")) {
            if (!(n instanceof IndexedCell<?> cell) || !cell.isVisible() || cell.isEmpty() || cell.getText() == null
                    || cell.getText().isEmpty() || !(cell.lookup(".text") instanceof Text shown)) {
                continue;
            }
            TableColumnBase<?, ?> column = cell instanceof TableCell<?, ?> c ? c.getTableColumn()
                    : cell instanceof TreeTableCell<?, ?> c ? c.getTableColumn() : null;
            if (column == null || shown.getText().equals(cell.getText()) || cell.isWrapText()) {
                continue;
            }
            out.add(String.format(Locale.ROOT, "%s / %s: '%s' for '%s' (%.0f px to spare)",
                    table.getId() == null ? table.getClass().getSimpleName() : "#" + table.getId(),
                    column.getText(), shown.getText(), cell.getText(), spare));
        }
    }
}
