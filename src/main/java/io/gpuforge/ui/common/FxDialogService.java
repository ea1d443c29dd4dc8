package io.gpuforge.ui.common;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Supplier;
import javafx.scene.Scene;
import javafx.scene.control.Alert;
import javafx.scene.control.Button;
import javafx.scene.control.ButtonBar;
import javafx.scene.control.ButtonType;
import javafx.scene.control.Dialog;
import javafx.scene.control.Label;
import javafx.scene.control.PasswordField;
import javafx.scene.control.TextArea;
import javafx.scene.input.Clipboard;
import javafx.scene.input.ClipboardContent;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;
import javafx.stage.Window;

/** The JavaFX dialogs; call on the FX thread. */
public final class FxDialogService implements DialogService {

    private final I18n i18n;
    private final Supplier<Window> owner;
    private final Consumer<Scene> styler;

    public FxDialogService(I18n i18n, Supplier<Window> owner, Consumer<Scene> styler) {
        this.i18n = i18n;
        this.owner = owner;
        this.styler = styler;
    }

    private void prepare(Dialog<?> d, String titleKey) {
        Window w = owner.get();
        if (w != null && w.isShowing()) {
            d.initOwner(w);
        }
        d.setTitle(i18n.get(titleKey));
        d.setResizable(true);
        styler.accept(d.getDialogPane().getScene());
    }

    @Override
    public void showInfo(String titleKey, String message) {
        Alert a = new Alert(Alert.AlertType.INFORMATION, message, ok());
        prepare(a, titleKey);
        a.setHeaderText(null);
        a.showAndWait();
    }

    @Override
    public void showError(String titleKey, String message, Throwable details) {
        Alert a = buildError(titleKey, message, details);
        a.showAndWait();
    }

    /** Builds (without showing) the error dialog; lets tests and screenshots look at it. */
    public Alert buildError(String titleKey, String message, Throwable details) {
        Alert a = new Alert(Alert.AlertType.ERROR, message, close());
        prepare(a, titleKey);
        a.setHeaderText(i18n.get(titleKey));
        a.getDialogPane().setId("error-dialog");
        if (details != null) {
            TextArea area = new TextArea(stackTrace(details));
            area.setEditable(false);
            area.setWrapText(false);
            area.setId("error-details");
            area.setPrefRowCount(12);
            VBox.setVgrow(area, Priority.ALWAYS);
            Button copy = new Button(i18n.get("dialog.error.copy"));
            copy.setId("error-copy");
            copy.setOnAction(e -> {
                ClipboardContent c = new ClipboardContent();
                c.putString(area.getText());
                Clipboard.getSystemClipboard().setContent(c);
            });
            VBox box = new VBox(6, new Label(i18n.get("dialog.error.details")), area, copy);
            a.getDialogPane().setExpandableContent(box);
        }
        return a;
    }

    /** Buttons in the application's language (JavaFX's own follow the JVM locale, not ours). */
    private ButtonType ok() {
        return new ButtonType(i18n.get("dialog.ok"), ButtonBar.ButtonData.OK_DONE);
    }

    private ButtonType cancel() {
        return new ButtonType(i18n.get("dialog.cancel"), ButtonBar.ButtonData.CANCEL_CLOSE);
    }

    private ButtonType close() {
        return new ButtonType(i18n.get("dialog.close"), ButtonBar.ButtonData.CANCEL_CLOSE);
    }

    static String stackTrace(Throwable t) {
        StringWriter w = new StringWriter();
        t.printStackTrace(new PrintWriter(w));
        return w.toString();
    }

    @Override
    public boolean confirm(String titleKey, String message) {
        ButtonType ok = ok();
        Alert a = new Alert(Alert.AlertType.CONFIRMATION, message, ok, cancel());
        prepare(a, titleKey);
        a.setHeaderText(null);
        return a.showAndWait().filter(b -> b == ok).isPresent();
    }

    @Override
    public Optional<char[]> askSecret(String titleKey, String prompt) {
        Dialog<char[]> d = new Dialog<>();
        prepare(d, titleKey);
        PasswordField field = new PasswordField();
        field.setId("secret-field");
        d.getDialogPane().setContent(new VBox(8, new Label(prompt), field));
        ButtonType ok = ok();
        d.getDialogPane().getButtonTypes().setAll(ok, cancel());
        d.setResultConverter(b -> b == ok ? field.getText().toCharArray() : null);
        d.setOnShown(e -> field.requestFocus());
        Optional<char[]> result = d.showAndWait();
        field.clear();
        return result;
    }
}
