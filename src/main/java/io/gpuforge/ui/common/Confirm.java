package io.gpuforge.ui.common;

import java.util.function.Consumer;
import java.util.function.Supplier;
import javafx.scene.Scene;
import javafx.scene.control.Alert;
import javafx.scene.control.Button;
import javafx.scene.control.ButtonBar;
import javafx.scene.control.ButtonType;
import javafx.stage.Window;

/**
 * A yes/no question that does not wait: the dialog is shown, the window keeps drawing, and {@code then} runs when
 * the user said yes. For actions started from menus and buttons; {@link DialogService#confirm} waits instead.
 * The dialog pane has the id {@code confirm-dialog}, its yes button {@code confirm-ok}.
 */
public final class Confirm {

    private final I18n i18n;
    private final Supplier<Window> owner;
    private final Consumer<Scene> styler;

    public Confirm(I18n i18n, Supplier<Window> owner, Consumer<Scene> styler) {
        this.i18n = i18n;
        this.owner = owner;
        this.styler = styler;
    }

    /** Asks {@code text} under the title {@code titleKey}; the yes button says {@code okKey}. */
    public void ask(String titleKey, String text, String okKey, Runnable then) {
        ButtonType ok = new ButtonType(i18n.get(okKey), ButtonBar.ButtonData.OK_DONE);
        Alert a = new Alert(Alert.AlertType.CONFIRMATION, text, ok, new ButtonType(i18n.get("dialog.cancel"),
                ButtonBar.ButtonData.CANCEL_CLOSE));
        Window w = owner.get();
        if (w != null && w.isShowing()) {
            a.initOwner(w);
        }
        a.setTitle(i18n.get(titleKey));
        a.setHeaderText(null);
        a.getDialogPane().setId("confirm-dialog");
        styler.accept(a.getDialogPane().getScene());
        ((Button) a.getDialogPane().lookupButton(ok)).setId("confirm-ok");
        a.resultProperty().addListener((o, x, b) -> {
            if (b == ok) {
                then.run();
            }
        });
        a.show();
    }
}
