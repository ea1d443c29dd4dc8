package io.gpuforge.ui.common;

import java.util.function.Function;
import javafx.scene.control.ListCell;
import javafx.scene.control.ListView;
import javafx.util.Callback;

/** List cells that show one line of text made from their item (an empty cell shows nothing). */
public final class TextCells {

    private TextCells() {
    }

    /** A cell factory for a {@link ListView} whose rows are {@code text} of their item. */
    public static <T> Callback<ListView<T>, ListCell<T>> of(Function<? super T, String> text) {
        return list -> new ListCell<>() {
            @Override
            protected void updateItem(T item, boolean empty) {
                super.updateItem(item, empty);
                setText(empty || item == null ? null : text.apply(item));
            }
        };
    }
}
