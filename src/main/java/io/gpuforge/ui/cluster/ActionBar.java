package io.gpuforge.ui.cluster;

import io.gpuforge.ui.common.I18n;
import io.gpuforge.ui.common.Icons;
import io.gpuforge.ui.common.ViewScope;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.BiPredicate;
import java.util.function.Function;
import java.util.function.Supplier;
import javafx.scene.control.Button;
import javafx.scene.layout.FlowPane;
import org.kordamp.ikonli.feather.Feather;

/**
 * A page's row of action buttons, one per kind of action: id {@code <prefix>-<kind>}, the kind's label (following
 * the language) and icon; a click runs the action on the page's subject when it can be run on it now.
 */
final class ActionBar<K extends Enum<K>, T> {

    private final FlowPane bar = new FlowPane(6, 6);
    private final Map<K, Button> buttons;

    ActionBar(String prefix, Class<K> kinds, ViewScope scope, I18n i18n, Function<K, String> key,
              Function<K, Feather> icon, Supplier<T> subject, BiPredicate<K, T> can, BiConsumer<K, T> run) {
        Map<K, Button> made = new EnumMap<>(kinds);
        bar.setId(prefix + "-actions");
        for (K k : kinds.getEnumConstants()) {
            Button b = new Button();
            b.setId(prefix + "-" + k.name().toLowerCase(Locale.ROOT));
            scope.bind(b.textProperty(), i18n.text(key.apply(k)));
            b.setGraphic(Icons.of(icon.apply(k)));
            b.setOnAction(e -> {
                T t = subject.get();
                if (t != null && can.test(k, t)) {
                    run.accept(k, t);
                }
            });
            made.put(k, b);
            bar.getChildren().add(b);
        }
        buttons = Collections.unmodifiableMap(made);
    }

    /** The row, to put on the page (features may add their own buttons after these). */
    FlowPane bar() {
        return bar;
    }

    /** Each kind's button (to enable it as the subject allows). */
    Map<K, Button> buttons() {
        return buttons;
    }
}
