package io.gpuforge.ui.connections;

import io.gpuforge.domain.connections.ConnectionInfo;
import io.gpuforge.domain.connections.HostLink;
import io.gpuforge.ui.common.TextCells;
import io.gpuforge.ui.common.UiContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javafx.collections.FXCollections;
import javafx.scene.control.Button;
import javafx.scene.control.ButtonBar;
import javafx.scene.control.ButtonType;
import javafx.scene.control.ChoiceBox;
import javafx.scene.control.Dialog;
import javafx.scene.control.Label;
import javafx.scene.layout.VBox;
import javafx.stage.Window;

/**
 * Links a Proxmox VE node or a libvirt host to the host where its host-level work happens (probe, passthrough
 * changes, reboot, telemetry over SSH): this computer, a saved SSH host, or none. Shows the link there is (the
 * user's, or a guess); saving happens in the background.
 */
public final class HostLinkDialog {

    /** One choice of the list: a target, or none (the link is removed). */
    record Choice(String label, Optional<HostLink.Target> target) {
    }

    private record Loaded(List<Choice> choices, Optional<HostLink> link) {
    }

    private final Dialog<ButtonType> dialog = new Dialog<>();
    private final ChoiceBox<Choice> choice = new ChoiceBox<>();
    private final Label current = new Label();

    public HostLinkDialog(UiContext ui, HostLinkServices services, ConnectionInfo c, String node, Window owner) {
        if (owner != null) {
            dialog.initOwner(owner);
        }
        dialog.setTitle(ui.i18n().get("console.link.title", node));
        dialog.getDialogPane().setId("host-link-dialog");
        choice.setId("host-link-choice");
        choice.setConverter(TextCells.converter(Choice::label));
        current.setId("host-link-current");
        current.setWrapText(true);
        Label text = new Label(ui.i18n().get("console.link.text", node, c.name()));
        text.setWrapText(true);
        dialog.getDialogPane().setContent(new VBox(8, text, current, choice));
        ButtonType save = new ButtonType(ui.i18n().get("console.link.save"), ButtonBar.ButtonData.OK_DONE);
        dialog.getDialogPane().getButtonTypes().setAll(save, new ButtonType(ui.i18n().get("dialog.cancel"),
                ButtonBar.ButtonData.CANCEL_CLOSE));
        Button saveButton = (Button) dialog.getDialogPane().lookupButton(save);
        saveButton.setId("host-link-save");
        saveButton.disableProperty().bind(choice.valueProperty().isNull());
        ui.tasks().supply(ui.i18n().get("console.task.readLink", node), () -> {
            List<Choice> out = new ArrayList<>();
            out.add(new Choice(ui.i18n().get("console.link.none"), Optional.empty()));
            out.add(new Choice(ui.i18n().get("connection.local"), Optional.of(new HostLink.Local())));
            for (ConnectionInfo s : services.connections().all()) {
                if (s.kind() == ConnectionInfo.Kind.SSH) {
                    out.add(new Choice(s.name() + " (" + s.username() + "@" + s.address() + ")",
                            Optional.of(new HostLink.SavedSsh(s.id()))));
                }
            }
            Optional<HostLink> link = services.hostLinks().of(c, node);
            return new Loaded(out, link);
        }).onSuccess(r -> {
            List<Choice> list = r.choices();
            Optional<HostLink> link = r.link();
            choice.setItems(FXCollections.observableArrayList(list));
            current.setText(link.map(l -> ui.i18n().get(l.guessed() ? "console.link.guessed" : "console.link.linked",
                    describe(l.target(), list))).orElse(ui.i18n().get("console.link.unlinked")));
            choice.setValue(link.filter(l -> !l.guessed()).flatMap(l -> list.stream()
                    .filter(ch -> ch.target().equals(Optional.of(l.target()))).findFirst()).orElse(list.get(0)));
        }).onError(t -> current.setText(t.getMessage())).start();
        dialog.resultProperty().addListener((o, a, b) -> {
            if (b == save && choice.getValue() != null) {
                Optional<HostLink.Target> target = choice.getValue().target();
                ui.tasks().supply(ui.i18n().get("console.task.saveLink", node), () -> {
                    if (target.isPresent()) {
                        services.hostLinks().link(c, node, target.get());
                    } else {
                        services.hostLinks().unlink(c, node);
                    }
                    return Boolean.TRUE;
                }).onSuccess(x -> services.events().info(c.name(), ui.i18n().get("console.event.linked", node,
                        choice.getValue().label())))
                        .onError(t -> ui.dialogs().showError("dialog.error.title", t.getMessage(), t)).start();
            }
        });
    }

    private static String describe(HostLink.Target t, List<Choice> known) {
        return known.stream().filter(ch -> ch.target().equals(Optional.of(t))).map(Choice::label).findFirst()
                .orElse(t.key());
    }

    public Dialog<ButtonType> dialog() {
        return dialog;
    }

    public void show() {
        dialog.show();
    }
}
