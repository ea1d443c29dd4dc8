package io.gpuforge.ui.connections;

import io.gpuforge.app.backends.ConnectionTester.Field;
import io.gpuforge.app.host.KeyFiles;
import io.gpuforge.domain.connections.ConnectionInfo;
import io.gpuforge.ui.common.I18n;
import io.gpuforge.ui.common.TextCells;
import java.io.File;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;
import javafx.beans.binding.Bindings;
import javafx.beans.binding.BooleanBinding;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.event.ActionEvent;
import javafx.geometry.Insets;
import javafx.scene.control.Button;
import javafx.scene.control.ButtonBar;
import javafx.scene.control.ButtonType;
import javafx.scene.control.CheckBox;
import javafx.scene.control.ChoiceBox;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Control;
import javafx.scene.control.Dialog;
import javafx.scene.control.Label;
import javafx.scene.control.PasswordField;
import javafx.scene.control.TextField;
import javafx.scene.control.TextInputControl;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.stage.FileChooser;
import javafx.stage.Window;
import org.controlsfx.validation.ValidationResult;
import org.controlsfx.validation.ValidationSupport;
import org.controlsfx.validation.decoration.StyleClassValidationDecoration;

/**
 * Adds a connection, or changes a saved one: a Proxmox VE cluster (API token, or user, realm and password with the
 * one-time code when the account asks), a libvirt URI, an SSH host (the SSH agent, a key file with its passphrase
 * when it is encrypted, or a password; sudo), or the Demo lab. Every field is checked as you type, and marked when
 * "Test connection" found it wrong (style classes, not graphic decorations: those re-parent the dialog's root and
 * break {@code Dialog.show()}).
 */
public final class AddConnectionDialog {

    private final Dialog<ButtonType> dialog = new Dialog<>();
    private final ValidationSupport validation = new ValidationSupport();
    private final AddConnectionViewModel model;
    private final I18n i18n;

    public AddConnectionDialog(AddConnectionViewModel model, I18n i18n, Window owner, Consumer<ConnectionInfo> saved) {
        this.model = model;
        this.i18n = i18n;
        if (owner != null) {
            dialog.initOwner(owner);
        }
        dialog.setTitle(i18n.get(model.editing() ? "console.edit.title" : "connection.add.title.any"));
        dialog.getDialogPane().setId("add-connection");
        GridPane grid = new GridPane();
        grid.setHgap(12);
        grid.setVgap(6);
        grid.setPadding(new Insets(14));
        FormRows rows = new FormRows(grid);

        ChoiceBox<AddConnectionViewModel.Kind> kind = choice("conn-kind", List.of(AddConnectionViewModel.Kind.values()),
                k -> i18n.get(AddConnectionViewModel.kindKey(k)));
        kind.valueProperty().bindBidirectional(model.kindProperty());
        kind.setDisable(model.editing());
        rows.add(i18n.get("connection.add.kind"), kind, null, null, null);
        TextField name = text("conn-name", "pve-gpu1", model.nameProperty());
        validation.registerValidator(name, false, (Control c, String v) -> ValidationResult.fromErrorIf(c,
                model.nameProblem(), model.nameProblem() != null));
        rows.add(i18n.get("connection.add.name"), name, Bindings.createStringBinding(model::nameProblem,
                model.nameProperty()), null, "conn-name-problem");

        // Proxmox VE
        field(rows, Field.URL, "conn-pve-url", "https://pve1.example.org:8006", model.pveUrlProperty(),
                "connection.add.pveUrl", model.shows().proxmoxFields());
        ChoiceBox<ConnectionForm.PveAuth> pveAuth = choice("conn-pve-auth", List.of(ConnectionForm.PveAuth.values()),
                a -> i18n.get(a == ConnectionForm.PveAuth.TOKEN ? "console.form.pveAuth.token" : "console.form.pveAuth.password"));
        pveAuth.valueProperty().bindBidirectional(model.pveAuthProperty());
        rows.add(i18n.get("console.form.pveAuth"), pveAuth, null, model.shows().proxmoxFields(), null);
        field(rows, Field.TOKEN_ID, "conn-token-id", "root@pam!gpuforge", model.tokenIdProperty(),
                "connection.add.tokenId", model.shows().tokenFields());
        secret(rows, Field.TOKEN_SECRET, "conn-token-secret", model.tokenSecretProperty(), "connection.add.tokenSecret",
                model.shows().tokenFields());
        TextField user = text("conn-pve-user", "root", model.pveUserProperty());
        ComboBox<String> realm = new ComboBox<>(FXCollections.observableArrayList("pam", "pve"));
        realm.setId("conn-realm");
        realm.setEditable(true);
        realm.getEditor().textProperty().bindBidirectional(model.realmProperty());
        realm.setValue(model.realmProperty().get());
        realm.setPrefWidth(110);
        HBox userRow = new HBox(6, user, new Label("@"), realm);
        HBox.setHgrow(user, Priority.ALWAYS);
        register(user, Field.USER);
        rows.add(i18n.get("console.form.pveUser"), userRow, model.problemBinding(Field.USER),
                model.shows().pvePasswordFields(), "conn-pve-user-problem");
        secret(rows, Field.PASSWORD, "conn-pve-password", model.pvePasswordProperty(), "connection.add.password",
                model.shows().pvePasswordFields());
        field(rows, Field.ONE_TIME_CODE, "conn-totp", "123456", model.oneTimeCodeProperty(), "console.form.totp",
                model.shows().oneTimeCode());
        CheckBox trust = new CheckBox();
        trust.setId("conn-trust");
        trust.setWrapText(true);
        trust.textProperty().bind(Bindings.createStringBinding(() -> model.fingerprintProperty().get() == null ? ""
                : i18n.get("connection.add.trust", model.fingerprintProperty().get()), model.fingerprintProperty()));
        trust.selectedProperty().bindBidirectional(model.trustFingerprintProperty());
        rows.right(trust, model.fingerprintProperty().isNotNull().and(model.shows().proxmoxFields()));

        // libvirt
        field(rows, Field.URI, "conn-uri", "qemu+ssh://root@192.0.2.10/system", model.uriProperty(),
                "connection.add.uri", model.shows().libvirtFields());

        // SSH
        field(rows, Field.TARGET, "conn-target", "root@192.0.2.10:22", model.targetProperty(), "connection.add.target",
                model.shows().sshFields());
        ChoiceBox<ConnectionForm.SshAuth> sshAuth = choice("conn-ssh-auth", List.of(ConnectionForm.SshAuth.values()),
                a -> i18n.get(a == ConnectionForm.SshAuth.AGENT ? "console.form.sshAuth.agent"
                        : a == ConnectionForm.SshAuth.KEY_FILE ? "console.form.sshAuth.key" : "console.form.sshAuth.password"));
        sshAuth.valueProperty().bindBidirectional(model.sshAuthProperty());
        rows.add(i18n.get("console.form.sshAuth"), sshAuth, null, model.shows().sshFields(), null);
        TextField identity = text("conn-identity", "~/.ssh/id_ed25519", model.identityFileProperty());
        register(identity, Field.IDENTITY_FILE);
        Button browse = new Button(i18n.get("console.form.browse"));
        browse.setId("conn-identity-browse");
        browse.setOnAction(e -> pickKey(identity));
        HBox identityRow = new HBox(6, identity, browse);
        HBox.setHgrow(identity, Priority.ALWAYS);
        rows.add(i18n.get("console.form.identity"), identityRow, model.problemBinding(Field.IDENTITY_FILE),
                model.shows().keyFile(), "conn-identity-problem");
        secret(rows, Field.PASSPHRASE, "conn-passphrase", model.passphraseProperty(), "console.form.passphrase",
                model.shows().passphrase());
        CheckBox keep = new CheckBox(i18n.get("console.form.keepPassphrase"));
        keep.setId("conn-keep-passphrase");
        keep.selectedProperty().bindBidirectional(model.keepPassphraseProperty());
        rows.right(keep, model.shows().passphrase());
        secret(rows, Field.PASSWORD, "conn-password", model.passwordProperty(), "connection.add.password",
                model.shows().sshPassword());
        CheckBox sudo = new CheckBox(i18n.get("console.form.sudo"));
        sudo.setId("conn-sudo");
        sudo.selectedProperty().bindBidirectional(model.sudoProperty());
        rows.right(sudo, model.shows().sshFields());
        Label hint = new Label(i18n.get("connection.add.hint"));
        hint.setWrapText(true);
        hint.getStyleClass().add("text-muted");
        rows.wide(hint, model.shows().sshFields());

        Label demoNote = new Label(i18n.get("demo.banner"));
        demoNote.setWrapText(true);
        demoNote.getStyleClass().add("badge-warn");
        rows.wide(demoNote, model.shows().demoNote());

        Button test = new Button(i18n.get("connection.add.test"));
        test.setId("conn-test");
        test.disableProperty().bind(model.canTest().not());
        test.setOnAction(e -> model.testConnection());
        test.setMinWidth(Region.USE_PREF_SIZE);
        Label tested = new Label();
        tested.setId("conn-test-result");
        tested.setWrapText(true);
        tested.textProperty().bind(model.testResultProperty());
        tested.getStyleClass().add("test-result");
        tested.setPrefWidth(400);
        tested.setMinHeight(Region.USE_PREF_SIZE);
        rows.right(new HBox(10, test, tested), null);
        Label error = new Label();
        error.setId("conn-error");
        error.getStyleClass().add("danger");
        error.setWrapText(true);
        error.textProperty().bind(model.errorProperty());
        rows.wide(error, null);

        dialog.getDialogPane().setContent(grid);
        dialog.getDialogPane().setPrefWidth(600);
        validation.setValidationDecorator(new StyleClassValidationDecoration());
        // what a test found, and a change of kind, changes which fields are wrong
        model.testResultProperty().addListener((o, a, b) -> validation.revalidate());
        model.kindProperty().addListener((o, a, b) -> validation.revalidate());
        model.pveAuthProperty().addListener((o, a, b) -> validation.revalidate());
        model.sshAuthProperty().addListener((o, a, b) -> validation.revalidate());

        ButtonType save = new ButtonType(i18n.get(model.editing() ? "console.edit.save" : "connection.add.save"),
                ButtonBar.ButtonData.OK_DONE);
        dialog.getDialogPane().getButtonTypes().setAll(save, new ButtonType(i18n.get("dialog.cancel"),
                ButtonBar.ButtonData.CANCEL_CLOSE));
        Button saveButton = (Button) dialog.getDialogPane().lookupButton(save);
        saveButton.setId("conn-save");
        saveButton.disableProperty().bind(model.validProperty().not());
        // keep the dialog open until the save worked; close it from the success handler
        saveButton.addEventFilter(ActionEvent.ACTION, e -> {
            e.consume();
            model.save(c -> {
                dialog.close();
                saved.accept(c);
            });
        });
    }

    private TextField field(FormRows rows, Field f, String id, String prompt,
                            StringProperty value, String labelKey,
                            BooleanBinding shown) {
        TextField t = text(id, prompt, value);
        register(t, f);
        rows.add(i18n.get(labelKey), t, model.problemBinding(f), shown, id + "-problem");
        return t;
    }

    private void secret(FormRows rows, Field f, String id, StringProperty value, String labelKey,
                        BooleanBinding shown) {
        PasswordField p = new PasswordField();
        p.setId(id);
        p.textProperty().bindBidirectional(value);
        if (model.editing()) {
            p.setPromptText(i18n.get("console.edit.keepSecret"));
        }
        register(p, f);
        rows.add(i18n.get(labelKey), p, model.problemBinding(f), shown, id + "-problem");
    }

    private static TextField text(String id, String prompt, StringProperty value) {
        TextField t = new TextField();
        t.setId(id);
        t.setPromptText(prompt);
        t.textProperty().bindBidirectional(value);
        return t;
    }

    private void register(TextInputControl c, Field f) {
        validation.registerValidator(c, false, (Control ctl, String v) -> {
            String problem = model.problem(f);
            return ValidationResult.fromErrorIf(ctl, problem, problem != null);
        });
    }

    private static <T> ChoiceBox<T> choice(String id, List<T> values, Function<T, String> label) {
        ChoiceBox<T> box = new ChoiceBox<>(FXCollections.observableArrayList(values));
        box.setId(id);
        box.setConverter(TextCells.converter(label));
        return box;
    }

    private void pickKey(TextField identity) {
        FileChooser chooser = new FileChooser();
        chooser.setTitle(i18n.get("console.form.identity"));
        File ssh = KeyFiles.defaultDir().toFile();
        if (ssh.isDirectory()) {
            chooser.setInitialDirectory(ssh);
        }
        File f = chooser.showOpenDialog(dialog.getDialogPane().getScene().getWindow());
        if (f != null) {
            identity.setText(f.getAbsolutePath());
        }
    }

    public Dialog<ButtonType> dialog() {
        return dialog;
    }

    public void show() {
        dialog.show();
    }
}
