package io.gpuforge.ui.preferences;

import io.gpuforge.app.connections.SecretsService;
import io.gpuforge.app.settings.LanguageChoice;
import io.gpuforge.app.settings.KnownHostsFile;
import io.gpuforge.app.settings.ThemeChoice;
import io.gpuforge.ui.common.DialogService;
import io.gpuforge.ui.common.I18n;
import io.gpuforge.ui.common.TextCells;
import java.util.Locale;
import java.util.function.Function;
import javafx.beans.binding.Bindings;
import javafx.collections.FXCollections;
import javafx.geometry.Insets;
import javafx.scene.control.Button;
import javafx.scene.control.ButtonBar;
import javafx.scene.control.ButtonType;
import javafx.scene.control.ChoiceBox;
import javafx.scene.control.Dialog;
import javafx.scene.control.Label;
import javafx.scene.control.PasswordField;
import javafx.scene.control.Separator;
import javafx.scene.control.TextField;
import javafx.scene.layout.ColumnConstraints;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.stage.Window;

/** The preferences window: appearance (theme, language) and where secrets are kept. */
public final class PreferencesDialog {

    private final Dialog<Void> dialog = new Dialog<>();
    private final PreferencesViewModel model;
    private final I18n i18n;
    private final DialogService dialogs;

    public PreferencesDialog(PreferencesViewModel model, I18n i18n, DialogService dialogs, Window owner) {
        this.model = model;
        this.i18n = i18n;
        this.dialogs = dialogs;
        if (owner != null) {
            dialog.initOwner(owner);
        }
        dialog.titleProperty().bind(i18n.text("prefs.title"));
        dialog.getDialogPane().setId("preferences");
        Runnable closeButton = () -> dialog.getDialogPane().getButtonTypes().setAll(
                new ButtonType(i18n.get("dialog.close"), ButtonBar.ButtonData.CANCEL_CLOSE));
        closeButton.run();
        i18n.localeProperty().addListener((o, a, b) -> closeButton.run());
        dialog.setResizable(true);

        ChoiceBox<ThemeChoice> theme = choice(ThemeChoice.values(),
                t -> i18n.get("prefs.theme." + t.name().toLowerCase(Locale.ROOT)));
        theme.setId("prefs-theme");
        theme.valueProperty().bindBidirectional(model.themeProperty());
        ChoiceBox<LanguageChoice> language = choice(LanguageChoice.values(),
                l -> l == LanguageChoice.CHINESE_SIMPLIFIED ? "简体中文"
                        : l == LanguageChoice.ENGLISH ? "English" : i18n.get("prefs.language.system"));
        language.setId("prefs-language");
        language.valueProperty().bindBidirectional(model.languageProperty());

        ChoiceBox<KnownHostsFile> hostKeys = choice(KnownHostsFile.values(),
                f -> i18n.get("prefs.hostkeys." + f.name().toLowerCase(Locale.ROOT)));
        hostKeys.setId("prefs-host-keys");
        hostKeys.valueProperty().bindBidirectional(model.newHostKeysProperty());

        GridPane grid = new GridPane();
        grid.setHgap(14);
        grid.setVgap(12);
        grid.setPadding(new Insets(16));
        ColumnConstraints labels = new ColumnConstraints();
        labels.setMinWidth(Region.USE_PREF_SIZE);
        ColumnConstraints values = new ColumnConstraints();
        values.setHgrow(Priority.ALWAYS);
        grid.getColumnConstraints().setAll(labels, values);
        grid.add(header("prefs.section.appearance"), 0, 0, 2, 1);
        grid.addRow(1, label("prefs.theme"), theme);
        grid.addRow(2, label("prefs.language"), language);
        grid.add(new Separator(), 0, 3, 2, 1);
        grid.add(header("prefs.section.secrets"), 0, 4, 2, 1);
        Label state = new Label();
        state.setId("prefs-secrets-state");
        state.setWrapText(true);
        state.textProperty().bind(Bindings.createStringBinding(this::stateText, model.secretsStateProperty(),
                i18n.localeProperty()));
        grid.addRow(5, label("prefs.secrets.store"), state);
        Label message = new Label();
        message.setId("prefs-secrets-message");
        message.textProperty().bind(Bindings.createStringBinding(
                () -> model.secretsMessageProperty().get() == null ? "" : i18n.get(model.secretsMessageProperty().get()),
                model.secretsMessageProperty(), i18n.localeProperty()));
        grid.add(secretButtons(), 1, 6);
        grid.add(message, 1, 7);
        grid.add(new Separator(), 0, 8, 2, 1);
        grid.add(header("prefs.section.ssh"), 0, 9, 2, 1);
        grid.addRow(10, label("prefs.hostkeys"), hostKeys);
        Label hostKeysHint = new Label();
        hostKeysHint.setWrapText(true);
        hostKeysHint.textProperty().bind(i18n.text("prefs.hostkeys.hint"));
        grid.add(hostKeysHint, 1, 11);
        grid.add(new Separator(), 0, 12, 2, 1);
        grid.add(header("prefs.section.prometheus"), 0, 13, 2, 1);
        TextField listen = new TextField();
        listen.setId("prefs-prometheus-listen");
        listen.setPromptText("127.0.0.1:9835");
        listen.textProperty().bindBidirectional(model.prometheusListenProperty());
        TextField web = new TextField();
        web.setId("prefs-prometheus-web-config");
        web.setPromptText("/etc/gpuforge/web.yml");
        web.textProperty().bindBidirectional(model.prometheusWebConfigProperty());
        Label saved = new Label();
        saved.setId("prefs-prometheus-state");
        saved.setWrapText(true);
        Button save = new Button();
        save.setId("prefs-prometheus-save");
        save.textProperty().bind(i18n.text("prefs.prometheus.save"));
        save.setOnAction(e -> saved.setText(i18n.get(model.savePrometheus().orElse("prefs.prometheus.saved"))));
        listen.setOnAction(e -> save.fire());
        grid.addRow(14, label("prefs.prometheus.listen"), listen);
        grid.addRow(15, label("prefs.prometheus.webConfig"), web);
        grid.add(new HBox(8, save, saved), 1, 16);
        Label prometheusHint = new Label();
        prometheusHint.setWrapText(true);
        prometheusHint.textProperty().bind(i18n.text("prefs.prometheus.hint"));
        grid.add(prometheusHint, 1, 17);
        webhook(grid, 18);
        dialog.getDialogPane().setContent(grid);
        dialog.getDialogPane().setPrefWidth(560);
    }

    /** The alert webhook: its URL, a bearer token for the secret store, save and a test post. */
    private void webhook(GridPane grid, int row) {
        grid.add(new Separator(), 0, row, 2, 1);
        grid.add(header("prefs.section.webhook"), 0, row + 1, 2, 1);
        TextField url = new TextField();
        url.setId("prefs-webhook-url");
        url.setPromptText("https://ntfy.example.org/gpus");
        url.textProperty().bindBidirectional(model.alertWebhookProperty());
        PasswordField token = new PasswordField();
        token.setId("prefs-webhook-token");
        token.promptTextProperty().bind(i18n.text("prefs.webhook.tokenPrompt"));
        Button save = new Button();
        save.setId("prefs-webhook-save");
        save.textProperty().bind(i18n.text("prefs.webhook.save"));
        save.setOnAction(e -> {
            model.saveWebhook(token.getText().toCharArray());
            token.clear();
        });
        Button test = new Button();
        test.setId("prefs-webhook-test");
        test.textProperty().bind(i18n.text("prefs.webhook.test"));
        test.setOnAction(e -> model.testWebhook());
        test.disableProperty().bind(model.busyProperty());
        Label state = new Label();
        state.setId("prefs-webhook-state");
        state.setWrapText(true);
        state.textProperty().bind(Bindings.createStringBinding(() -> model.webhookMessageProperty().get() == null
                ? "" : i18n.get(model.webhookMessageProperty().get(), model.webhookDetailProperty().get()),
                model.webhookMessageProperty(), model.webhookDetailProperty(), i18n.localeProperty()));
        grid.addRow(row + 2, label("prefs.webhook.url"), url);
        grid.addRow(row + 3, label("prefs.webhook.token"), token);
        grid.add(new HBox(8, save, test), 1, row + 4);
        grid.add(state, 1, row + 5);
        Label hint = new Label();
        hint.setWrapText(true);
        hint.textProperty().bind(i18n.text("prefs.webhook.hint"));
        grid.add(hint, 1, row + 6);
    }

    private String stateText() {
        SecretsService.State s = model.secretsStateProperty().get();
        String key = "prefs.secrets.state." + s.name().toLowerCase(Locale.ROOT).replace('_', '-');
        return i18n.get(key, model.secretBackendName());
    }

    private HBox secretButtons() {
        Button setUp = new Button();
        setUp.setId("prefs-vault-setup");
        setUp.textProperty().bind(i18n.text("prefs.secrets.setup"));
        setUp.setOnAction(e -> dialogs.askSecret("prefs.secrets.setup", i18n.get("prefs.secrets.enter"))
                .ifPresent(p -> dialogs.askSecret("prefs.secrets.setup", i18n.get("prefs.secrets.repeat"))
                        .ifPresent(c -> model.setUpVault(p, c))));
        Button unlock = new Button();
        unlock.setId("prefs-vault-unlock");
        unlock.textProperty().bind(i18n.text("prefs.secrets.unlock"));
        unlock.setOnAction(e -> dialogs.askSecret("prefs.secrets.unlock", i18n.get("prefs.secrets.enter"))
                .ifPresent(model::unlockVault));
        Button lock = new Button();
        lock.setId("prefs-vault-lock");
        lock.textProperty().bind(i18n.text("prefs.secrets.lock"));
        lock.setOnAction(e -> model.lockVault());
        setUp.visibleProperty().bind(model.secretsStateProperty().isEqualTo(SecretsService.State.VAULT_NOT_SET_UP));
        unlock.visibleProperty().bind(model.secretsStateProperty().isEqualTo(SecretsService.State.VAULT_LOCKED));
        lock.visibleProperty().bind(model.secretsStateProperty().isEqualTo(SecretsService.State.VAULT_UNLOCKED));
        for (Button b : new Button[] {setUp, unlock, lock}) {
            b.managedProperty().bind(b.visibleProperty());
            b.disableProperty().bind(model.busyProperty());
        }
        return new HBox(8, setUp, unlock, lock);
    }

    private <T> ChoiceBox<T> choice(T[] values, Function<T, String> text) {
        ChoiceBox<T> box = new ChoiceBox<>(FXCollections.observableArrayList(values));
        Runnable setConverter = () -> box.setConverter(TextCells.converter(text));
        setConverter.run();
        i18n.localeProperty().addListener((o, a, b) -> setConverter.run());
        return box;
    }

    private Label label(String key) {
        Label l = new Label();
        l.textProperty().bind(i18n.text(key));
        return l;
    }

    private Label header(String key) {
        Label l = label(key);
        l.getStyleClass().add("title-4");
        return l;
    }

    public Dialog<Void> dialog() {
        return dialog;
    }

    public void show() {
        dialog.show();
    }
}
