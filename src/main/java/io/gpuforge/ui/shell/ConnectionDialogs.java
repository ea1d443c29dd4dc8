package io.gpuforge.ui.shell;

import io.gpuforge.domain.connections.ConnectionInfo;
import io.gpuforge.ui.common.Confirm;
import io.gpuforge.ui.common.FxHostKeyPrompt;
import io.gpuforge.ui.common.UiContext;
import io.gpuforge.ui.connections.AddConnectionDialog;
import io.gpuforge.ui.connections.AddConnectionViewModel;
import io.gpuforge.ui.connections.HostLinkDialog;
import io.gpuforge.ui.connections.HostLinkServices;
import java.util.Optional;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Supplier;
import javafx.stage.Stage;

/**
 * The main window's dialogs about its connections: the connection form (add, edit), the removal asked for first,
 * a node's host link. Each tells the event log; what the window shows afterwards is the window's (the callbacks).
 */
final class ConnectionDialogs {

    private final UiContext ui;
    private final Supplier<Stage> stage;
    private final Consumer<ConnectionInfo> added;
    private final BiConsumer<ConnectionInfo, ConnectionInfo> edited;
    private final Consumer<ConnectionInfo> removed;

    /** @param edited told the connection as it was and as it was saved */
    ConnectionDialogs(UiContext ui, Supplier<Stage> stage, Consumer<ConnectionInfo> added,
                      BiConsumer<ConnectionInfo, ConnectionInfo> edited, Consumer<ConnectionInfo> removed) {
        this.ui = ui;
        this.stage = stage;
        this.added = added;
        this.edited = edited;
        this.removed = removed;
    }

    private AddConnectionViewModel formModel(Optional<ConnectionInfo> editing) {
        return new AddConnectionViewModel(ui.app().connections(), ui.app().tester(),
                new FxHostKeyPrompt(ui.dialogs(), ui.i18n()), ui.tasks(), ui.i18n(), editing);
    }

    /** The form for a new connection, of {@code kind} when given. */
    void add(Optional<AddConnectionViewModel.Kind> kind) {
        AddConnectionViewModel form = formModel(Optional.empty());
        kind.ifPresent(form.kindProperty()::set);
        AddConnectionDialog d = new AddConnectionDialog(form, ui.i18n(), stage.get(), c -> {
            added.accept(c);
            ui.app().events().info(ui.i18n().get("event.source.connections"), ui.i18n().get("event.connectionAdded",
                    ui.i18n().get("connection.kind." + c.kind().db()), c.name(),
                    (c.username().isEmpty() ? "" : c.username() + "@") + c.address()));
        });
        ui.theme().style(d.dialog().getDialogPane().getScene());
        d.show();
    }

    /** The form on a saved connection. */
    void edit(ConnectionInfo c) {
        AddConnectionDialog d = new AddConnectionDialog(formModel(Optional.of(c)), ui.i18n(), stage.get(), saved -> {
            edited.accept(c, saved);
            ui.app().events().info(ui.i18n().get("event.source.connections"), ui.i18n().get("console.event.edited",
                    saved.name()));
        });
        ui.theme().style(d.dialog().getDialogPane().getScene());
        d.show();
    }

    /** Asks, then removes the connection (and its secrets) in the background. */
    void remove(ConnectionInfo c) {
        new Confirm(ui.i18n(), () -> stage.get(), ui.theme()::style).ask("console.remove.title",
                ui.i18n().get("console.remove.text", c.name()), "console.remove.ok", () ->
                        ui.tasks().supply(ui.i18n().get("console.task.removeConnection", c.name()), () -> {
                            ui.app().connections().remove(c.id());
                            return Boolean.TRUE;
                        }).onSuccess(x -> {
                            removed.accept(c);
                            ui.app().events().info(ui.i18n().get("event.source.connections"),
                                    ui.i18n().get("console.event.removed", c.name()));
                        }).onError(t -> ui.dialogs().showError("dialog.error.title", ui.i18n().get(
                                "console.remove.failed", c.name(), t.getMessage()), t)).start());
    }

    /** Links a node of {@code c} to its host over SSH. */
    void linkHost(ConnectionInfo c, String node) {
        HostLinkDialog d = new HostLinkDialog(ui, HostLinkServices.of(ui.app()), c, node, stage.get());
        ui.theme().style(d.dialog().getDialogPane().getScene());
        d.show();
    }
}
