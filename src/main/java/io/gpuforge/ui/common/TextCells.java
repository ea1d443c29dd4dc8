package io.gpuforge.ui.common;

import java.util.function.Function;
import javafx.scene.control.ListCell;
import javafx.scene.control.ListView;
import javafx.util.Callback;
import javafx.util.StringConverter;

/**
 * List cells and choice boxes that show one line of text made from their item (an empty cell, or no choice, shows
 * nothing).
 */
public final class TextCells {

    private TextCells() {
    }

    /**
     * A one-way converter for a choice box or a combo box that is not editable: the text of an item; a text is never
     * turned back into an item.
     */
    public static <T> StringConverter<T> converter(Function<? super T, String> text) {
        return new StringConverter<>() {
            @Override
            public String toString(T item) {
                return item == null ? "" : text.apply(item);
            }

            @Override
            public T fromString(String s) {
                throw new UnsupportedOperationException("a text is not turned back into a choice");
            }
        };
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
