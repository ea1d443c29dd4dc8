package io.gpuforge.ui.cluster;

import io.gpuforge.domain.vm.CloneRequest;
import io.gpuforge.domain.vm.VmInfo;
import io.gpuforge.ui.common.Confirm;
import io.gpuforge.ui.common.I18n;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Supplier;
import javafx.scene.Scene;
import javafx.scene.control.Button;
import javafx.scene.control.ButtonBar;
import javafx.scene.control.ButtonType;
import javafx.scene.control.CheckBox;
import javafx.scene.control.Dialog;
import javafx.scene.control.Label;
import javafx.scene.control.TextField;
import javafx.scene.layout.VBox;
import javafx.stage.Window;

/**
 * The questions a VM action asks before it runs: "stop it?" (the guest loses what it did not save), the name of a
 * clone, "type the VM's name to delete it". Each dialog is shown without waiting (so the window keeps drawing) and
 * runs {@code then} only when the user confirmed.
 */
final class VmDialogs {

    private final I18n i18n;
    private final Supplier<Window> owner;
    private final Consumer<Scene> styler;

    VmDialogs(I18n i18n, Supplier<Window> owner, Consumer<Scene> styler) {
        this.i18n = i18n;
        this.owner = owner;
        this.styler = styler;
    }

    private void prepare(Dialog<?> d, String titleKey, String id) {
        Window w = owner.get();
        if (w != null && w.isShowing()) {
            d.initOwner(w);
        }
        d.setTitle(i18n.get(titleKey));
        d.getDialogPane().setId(id);
        styler.accept(d.getDialogPane().getScene());
    }

    private ButtonType ok(String key) {
        return new ButtonType(i18n.get(key), ButtonBar.ButtonData.OK_DONE);
    }

    private ButtonType cancel() {
        return new ButtonType(i18n.get("dialog.cancel"), ButtonBar.ButtonData.CANCEL_CLOSE);
    }

    /** A yes/no question; {@code then} runs after "yes". */
    void confirm(String titleKey, String text, String okKey, Runnable then) {
        new Confirm(i18n, owner, styler).ask(titleKey, text, okKey, then);
    }

    /** Deleting: the VM's name must be typed before "Delete" can be pressed. */
    void confirmByName(VmInfo vm, Runnable then) {
        Dialog<ButtonType> d = new Dialog<>();
        prepare(d, "console.vm.delete.title", "confirm-name-dialog");
        ButtonType ok = ok("console.vm.delete.ok");
        d.getDialogPane().getButtonTypes().setAll(ok, cancel());
        TextField typed = new TextField();
        typed.setId("confirm-name-field");
        typed.setPromptText(vm.name());
        Label text = new Label(i18n.get("console.vm.delete.text", vm.ref().id(), vm.name(), vm.ref().node()));
        text.setWrapText(true);
        d.getDialogPane().setContent(new VBox(8, text, typed));
        Button okButton = (Button) d.getDialogPane().lookupButton(ok);
        okButton.setId("confirm-ok");
        okButton.disableProperty().bind(typed.textProperty().isNotEqualTo(vm.name()));
        okButton.getStyleClass().add("danger");
        d.resultProperty().addListener((o, x, b) -> {
            if (b == ok && vm.name().equals(typed.getText())) {
                then.run();
            }
        });
        d.setOnShown(e -> typed.requestFocus());
        d.show();
    }

    /**
     * A clone's name and, where the backend has linked clones ({@code linked}), whether it is a full copy; {@code
     * then} gets the request.
     */
    void cloneOf(VmInfo vm, boolean linked, Consumer<CloneRequest> then) {
        Dialog<ButtonType> d = new Dialog<>();
        prepare(d, "console.vm.clone.title", "clone-dialog");
        ButtonType ok = ok("console.vm.clone.ok");
        d.getDialogPane().getButtonTypes().setAll(ok, cancel());
        TextField name = new TextField(suggestName(vm.name()));
        name.setId("clone-name");
        CheckBox full = new CheckBox(i18n.get("console.vm.clone.full"));
        full.setId("clone-full");
        full.setSelected(!linked || !vm.template());
        full.setVisible(linked);
        full.setManaged(linked);
        Label problem = new Label();
        problem.setId("clone-name-problem");
        problem.getStyleClass().add("danger");
        Label text = new Label(i18n.get("console.vm.clone.text", vm.ref().id(), vm.name()));
        text.setWrapText(true);
        d.getDialogPane().setContent(new VBox(8, text, name, problem, full));
        Button okButton = (Button) d.getDialogPane().lookupButton(ok);
        okButton.setId("confirm-ok");
        name.textProperty().addListener((o, a, b) -> {
            String why = nameProblem(b);
            problem.setText(why == null ? "" : why);
            okButton.setDisable(why != null);
        });
        d.resultProperty().addListener((o, x, b) -> {
            if (b == ok && nameProblem(name.getText()) == null) {
                then.accept(new CloneRequest(vm.ref(), name.getText().strip(), Optional.empty(), full.isSelected(),
                        Optional.empty()));
            }
        });
        d.show();
    }

    static String suggestName(String source) {
        String base = source.replaceAll("[^A-Za-z0-9.-]", "-");
        base = base.isEmpty() || !Character.isLetterOrDigit(base.charAt(0)) ? "vm" + base : base;
        String n = base + "-clone";
        return n.length() > 63 ? n.substring(0, 63) : n;
    }

    String nameProblem(String n) {
        return n != null && n.strip().matches("[A-Za-z0-9][A-Za-z0-9.-]{0,62}") ? null : i18n.get("console.vm.clone.nameInvalid");
    }
}
