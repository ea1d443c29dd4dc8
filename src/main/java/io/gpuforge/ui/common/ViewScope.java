package io.gpuforge.ui.common;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.function.Function;
import javafx.beans.InvalidationListener;
import javafx.beans.Observable;
import javafx.beans.property.Property;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.value.ChangeListener;
import javafx.beans.value.ObservableValue;
import javafx.scene.control.TableColumn;

/**
 * The listeners and bindings a view adds to long-lived objects (view-models kept per connection, {@link I18n}),
 * undone together when the view goes away (its tab closed): a closed view then holds nothing and nothing holds it.
 */
public final class ViewScope {

    private final Deque<Runnable> undo = new ArrayDeque<>();

    public <T> void listen(ObservableValue<T> source, ChangeListener<? super T> listener) {
        source.addListener(listener);
        undo.push(() -> source.removeListener(listener));
    }

    public void listen(Observable source, InvalidationListener listener) {
        source.addListener(listener);
        undo.push(() -> source.removeListener(listener));
    }

    /** Binds {@code target} to {@code source}, unbound on dispose. */
    public <T> void bind(Property<T> target, ObservableValue<? extends T> source) {
        target.bind(source);
        undo.push(target::unbind);
    }

    /**
     * A table column of text: its header {@code key} in the UI's language (bound until dispose), its cells what
     * {@code value} says of the row.
     */
    public <S> TableColumn<S, String> textColumn(I18n i18n, String key, double width, Function<S, String> value) {
        TableColumn<S, String> c = new TableColumn<>();
        bind(c.textProperty(), i18n.text(key));
        c.setPrefWidth(width);
        c.setCellValueFactory(p -> new ReadOnlyStringWrapper(value.apply(p.getValue())));
        return c;
    }

    /** Anything else to undo, in reverse order of registration. */
    public void onDispose(Runnable r) {
        undo.push(r);
    }

    public void dispose() {
        while (!undo.isEmpty()) {
            undo.pop().run();
        }
    }
}
