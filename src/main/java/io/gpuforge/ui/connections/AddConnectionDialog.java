package io.gpuforge.ui.connections;

import io.gpuforge.domain.ConnectionInfo;
import io.gpuforge.ui.common.I18n;
import java.util.function.Consumer;
import javafx.event.ActionEvent;
import javafx.geometry.Insets;
import javafx.scene.control.Button;
import javafx.scene.control.ButtonBar;
import javafx.scene.control.ButtonType;
import javafx.scene.control.Dialog;
import javafx.scene.control.Label;
import javafx.scene.control.PasswordField;
import javafx.scene.control.TextField;
import javafx.scene.layout.GridPane;
import javafx.stage.Window;
import org.controlsfx.validation.ValidationSupport;
import org.controlsfx.validation.Validator;
import org.controlsfx.validation.decoration.StyleClassValidationDecoration;

/** Adds an SSH host (user@host[:port], optional password kept in the secret store). */
public final class AddConnectionDialog {

    private final Dialog<ButtonType> dialog = new Dialog<>();

    public AddConnectionDialog(AddConnectionViewModel model, I18n i18n, Window owner, Consumer<ConnectionInfo> added) {
        if (owner != null) {
            dialog.initOwner(owner);
        }
        dialog.setTitle(i18n.get("connection.add.title.any"));
        dialog.getDialogPane().setId("add-connection");
        TextField name = new TextField();
        name.setId("conn-name");
        name.setPromptText("pve-gpu1");
        name.textProperty().bindBidirectional(model.nameProperty());
        TextField target = new TextField();
        target.setId("conn-target");
        target.setPromptText("root@192.0.2.10:22");
        target.textProperty().bindBidirectional(model.targetProperty());
        PasswordField password = new PasswordField();
        password.setId("conn-password");
        password.textProperty().bindBidirectional(model.passwordProperty());
        Label hint = new Label(i18n.get("connection.add.hint"));
        hint.setWrapText(true);
        hint.getStyleClass().add("text-muted");
        Label error = new Label();
        error.setId("conn-error");
        error.getStyleClass().add("danger");
        error.setWrapText(true);
        error.textProperty().bind(model.errorProperty());

        javafx.scene.control.ChoiceBox<AddConnectionViewModel.Kind> kind = new javafx.scene.control.ChoiceBox<>(
                javafx.collections.FXCollections.observableArrayList(AddConnectionViewModel.Kind.values()));
        kind.setId("conn-kind");
        kind.setConverter(new javafx.util.StringConverter<>() {
            @Override
            public String toString(AddConnectionViewModel.Kind k) {
                return k == null ? "" : i18n.get(AddConnectionViewModel.kindKey(k));
            }

            @Override
            public AddConnectionViewModel.Kind fromString(String s) {
                throw new UnsupportedOperationException();
            }
        });
        kind.valueProperty().bindBidirectional(model.kindProperty());
        TextField uri = new TextField();
        uri.setId("conn-uri");
        uri.setPromptText("qemu+ssh://root@192.0.2.10/system");
        uri.textProperty().bindBidirectional(model.uriProperty());
        Button test = new Button(i18n.get("connection.add.test"));
        test.setId("conn-test");
        test.setOnAction(e -> model.testConnection());
        Label tested = new Label();
        tested.setId("conn-test-result");
        tested.setWrapText(true);
        tested.textProperty().bind(model.testResultProperty());
        TextField pveUrl = new TextField();
        pveUrl.setId("conn-pve-url");
        pveUrl.setPromptText("https://pve1.example.org:8006");
        pveUrl.textProperty().bindBidirectional(model.pveUrlProperty());
        TextField tokenId = new TextField();
        tokenId.setId("conn-token-id");
        tokenId.textProperty().bindBidirectional(model.tokenIdProperty());
        PasswordField tokenSecret = new PasswordField();
        tokenSecret.setId("conn-token-secret");
        tokenSecret.textProperty().bindBidirectional(model.tokenSecretProperty());
        javafx.scene.control.CheckBox trust = new javafx.scene.control.CheckBox();
        trust.setId("conn-trust");
        trust.setWrapText(true);
        trust.textProperty().bind(javafx.beans.binding.Bindings.createStringBinding(() -> model.fingerprintProperty().get() == null
                ? "" : i18n.get("connection.add.trust", model.fingerprintProperty().get()), model.fingerprintProperty()));
        trust.selectedProperty().bindBidirectional(model.trustFingerprintProperty());
        trust.visibleProperty().bind(model.fingerprintProperty().isNotNull());
        trust.managedProperty().bind(trust.visibleProperty());
        Label pveUrlLabel = new Label(i18n.get("connection.add.pveUrl"));
        Label tokenIdLabel = new Label(i18n.get("connection.add.tokenId"));
        Label tokenSecretLabel = new Label(i18n.get("connection.add.tokenSecret"));
        Label uriLabel = new Label(i18n.get("connection.add.uri"));
        Label targetLabel = new Label(i18n.get("connection.add.target"));
        Label passwordLabel = new Label(i18n.get("connection.add.password"));
        javafx.scene.layout.HBox testRow = new javafx.scene.layout.HBox(10, test, tested);

        GridPane grid = new GridPane();
        grid.setHgap(12);
        grid.setVgap(10);
        grid.setPadding(new Insets(14));
        grid.addRow(0, new Label(i18n.get("connection.add.kind")), kind);
        grid.addRow(1, new Label(i18n.get("connection.add.name")), name);
        grid.addRow(2, targetLabel, target);
        grid.addRow(3, passwordLabel, password);
        grid.addRow(4, uriLabel, uri);
        grid.addRow(5, pveUrlLabel, pveUrl);
        grid.addRow(6, tokenIdLabel, tokenId);
        grid.addRow(7, tokenSecretLabel, tokenSecret);
        grid.add(testRow, 1, 9);
        grid.add(trust, 1, 10);
        grid.add(hint, 0, 11, 2, 1);
        grid.add(error, 0, 12, 2, 1);
        var ssh = model.showsSshFields();
        var libvirtKind = model.showsLibvirtFields();
        Label demoNote = new Label(i18n.get("demo.banner"));
        demoNote.setWrapText(true);
        demoNote.getStyleClass().add("badge-warn");
        demoNote.visibleProperty().bind(model.showsDemoNote());
        demoNote.managedProperty().bind(demoNote.visibleProperty());
        grid.add(demoNote, 0, 13, 2, 1);
        var pveKind = model.showsProxmoxFields();
        for (javafx.scene.Node n : new javafx.scene.Node[] {pveUrlLabel, pveUrl, tokenIdLabel, tokenId, tokenSecretLabel,
            tokenSecret}) {
            n.visibleProperty().bind(pveKind);
            n.managedProperty().bind(pveKind);
        }
        for (javafx.scene.Node n : new javafx.scene.Node[] {targetLabel, target, passwordLabel, password, hint}) {
            n.visibleProperty().bind(ssh);
            n.managedProperty().bind(ssh);
        }
        for (javafx.scene.Node n : new javafx.scene.Node[] {uriLabel, uri}) {
            n.visibleProperty().bind(libvirtKind);
            n.managedProperty().bind(libvirtKind);
        }
        testRow.visibleProperty().bind(model.canTest());
        testRow.managedProperty().bind(testRow.visibleProperty());
        dialog.getDialogPane().setContent(grid);
        dialog.getDialogPane().setPrefWidth(520);

        ValidationSupport validation = new ValidationSupport();
        // style classes, not graphic decorations: those re-parent the dialog's root and break Dialog.show()
        validation.setValidationDecorator(new StyleClassValidationDecoration());
        validation.registerValidator(name, Validator.createEmptyValidator(i18n.get("connection.add.nameRequired")));
        validation.registerValidator(target, Validator.<String>createPredicateValidator(
                AddConnectionViewModel::validTarget, i18n.get("connection.add.targetInvalid")));

        ButtonType save = new ButtonType(i18n.get("connection.add.save"), ButtonBar.ButtonData.OK_DONE);
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
                added.accept(c);
            });
        });
    }

    public Dialog<ButtonType> dialog() {
        return dialog;
    }

    public void show() {
        dialog.show();
    }
}
