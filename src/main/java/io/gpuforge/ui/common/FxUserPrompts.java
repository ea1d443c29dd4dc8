package io.gpuforge.ui.common;

import io.gpuforge.app.UserPrompts;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.function.Supplier;
import javafx.application.Platform;
import javafx.scene.control.ButtonBar;
import javafx.scene.control.ButtonType;
import javafx.scene.control.CheckBox;
import javafx.scene.control.Dialog;
import javafx.scene.control.Label;
import javafx.scene.control.PasswordField;
import javafx.scene.layout.VBox;
import javafx.stage.Window;

/**
 * The window's answers to a login that needs the user while it runs on a background thread: the one-time code of
 * a second factor, the passphrase of an encrypted SSH key (with "keep it in the secret store"). Asks on the FX
 * thread; the background thread waits for the answer.
 */
public final class FxUserPrompts implements UserPrompts {

    private final DialogService dialogs;
    private final I18n i18n;
    private final Supplier<Window> owner;

    public FxUserPrompts(DialogService dialogs, I18n i18n, Supplier<Window> owner) {
        this.dialogs = dialogs;
        this.i18n = i18n;
        this.owner = owner;
    }

    @Override
    public Optional<String> oneTimeCode(String connection, String user) {
        return onFx(() -> dialogs.askSecret("console.login.totp.title", i18n.get("console.login.totp.text", user,
                connection)).map(code -> {
                    String s = new String(code).strip();
                    Arrays.fill(code, '\0');
                    return s;
                }));
    }

    @Override
    public Optional<Passphrase> keyPassphrase(String connection, Path keyFile) {
        return onFx(() -> askPassphrase(connection, keyFile));
    }

    private Optional<Passphrase> askPassphrase(String connection, Path keyFile) {
        Dialog<Passphrase> d = new Dialog<>();
        Window w = owner.get();
        if (w != null && w.isShowing()) {
            d.initOwner(w);
        }
        d.setTitle(i18n.get("console.login.passphrase.title"));
        d.getDialogPane().setId("passphrase-dialog");
        PasswordField field = new PasswordField();
        field.setId("passphrase-field");
        CheckBox keep = new CheckBox(i18n.get("console.login.passphrase.keep"));
        keep.setId("passphrase-keep");
        Label text = new Label(i18n.get("console.login.passphrase.text", keyFile, connection));
        text.setWrapText(true);
        d.getDialogPane().setContent(new VBox(8, text, field, keep));
        ButtonType ok = new ButtonType(i18n.get("dialog.ok"), ButtonBar.ButtonData.OK_DONE);
        d.getDialogPane().getButtonTypes().setAll(ok, new ButtonType(i18n.get("dialog.cancel"),
                ButtonBar.ButtonData.CANCEL_CLOSE));
        d.setResultConverter(b -> b == ok ? new Passphrase(field.getText().toCharArray(), keep.isSelected()) : null);
        d.setOnShown(e -> field.requestFocus());
        Optional<Passphrase> out = d.showAndWait();
        field.clear();
        return out;
    }

    private static <T> Optional<T> onFx(Supplier<Optional<T>> ask) {
        if (Platform.isFxApplicationThread()) {
            throw new IllegalStateException("a login prompt was called on the FX thread");
        }
        CompletableFuture<Optional<T>> answer = new CompletableFuture<>();
        Platform.runLater(() -> {
            try {
                answer.complete(ask.get());
            } catch (RuntimeException e) {
                answer.completeExceptionally(e);
            }
        });
        try {
            return answer.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        } catch (ExecutionException e) {
            return Optional.empty();
        }
    }
}
