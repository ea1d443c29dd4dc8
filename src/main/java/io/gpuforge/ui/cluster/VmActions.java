package io.gpuforge.ui.cluster;

import io.gpuforge.app.session.ConnectionSession;
import io.gpuforge.app.vmcreate.SnippetCleanup;
import io.gpuforge.domain.Capability;
import io.gpuforge.domain.vm.CloneRequest;
import io.gpuforge.domain.tasks.TaskOutcome;
import io.gpuforge.domain.vm.VmAction;
import io.gpuforge.domain.vm.VmInfo;
import io.gpuforge.domain.vm.VmState;
import io.gpuforge.ui.common.FxHostKeyPrompt;
import io.gpuforge.ui.common.UiContext;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import javafx.application.Platform;
import javafx.stage.Window;

/**
 * What can be done to a VM from its page and from the tree: start, shut down, reboot, stop (asked first), clone,
 * convert to a template (asked first), delete (its name typed first), open its console. Each runs in the background
 * as a task of the connection (written to the task log), says how it ended in the events panel, and makes the
 * inventory read again. Which actions a VM offers follows its state and what the backend can do. FX thread.
 */
public final class VmActions {

    /** The actions, as the page's buttons and the tree's menu items name them. */
    public enum Kind { START, SHUTDOWN, REBOOT, STOP, CLONE, TEMPLATE, DELETE, CONSOLE }

    private final UiContext ui;
    private final ClusterServices services;
    private final ClusterModel cluster;
    private final VmDialogs dialogs;

    VmActions(UiContext ui, ClusterServices services, ClusterModel cluster, Supplier<Window> owner) {
        this.ui = ui;
        this.services = services;
        this.cluster = cluster;
        this.dialogs = new VmDialogs(ui.i18n(), owner, ui.theme()::style);
    }

    private ConnectionSession session() {
        return cluster.session();
    }

    /** Whether {@code k} can be done to {@code vm} now. */
    public boolean can(Kind k, VmInfo vm) {
        if (vm == null) {
            return false;
        }
        boolean running = vm.state().isRunning();
        switch (k) {
            case START:
                return !vm.template() && !running && session().can(Capability.VM_LIFECYCLE);
            case SHUTDOWN:
            case REBOOT:
            case STOP:
                return running && session().can(Capability.VM_LIFECYCLE);
            case CLONE:
                return session().can(Capability.CLONE);
            case TEMPLATE:
                return !vm.template() && vm.state() == VmState.STOPPED && session().can(Capability.TEMPLATES);
            case DELETE:
                return !running && session().can(Capability.VM_DELETE);
            default:
                return !vm.template() && running;
        }
    }

    /** Runs {@code k} on {@code vm}, asking first where the action cannot be taken back. */
    public void run(Kind k, VmInfo vm) {
        String id = vm.ref().id();
        switch (k) {
            case START:
                power(vm, VmAction.START);
                break;
            case SHUTDOWN:
                power(vm, VmAction.SHUTDOWN);
                break;
            case REBOOT:
                power(vm, VmAction.REBOOT);
                break;
            case STOP:
                dialogs.confirm("console.vm.stop.title", ui.i18n().get("console.vm.stop.text", id, vm.name()),
                        "console.vm.stop.ok", () -> power(vm, VmAction.STOP));
                break;
            case CLONE:
                dialogs.cloneOf(vm, session().can(Capability.TEMPLATES), r -> task(vm,
                        ui.i18n().get("console.task.clone", id, r.name()),
                        () -> session().cloneVm(r, line -> { }, () -> false)));
                break;
            case TEMPLATE:
                dialogs.confirm("console.vm.template.title", ui.i18n().get("console.vm.template.text", id, vm.name()),
                        "console.vm.template.ok", () -> task(vm, ui.i18n().get("console.task.template", id),
                                () -> session().convertToTemplate(vm.ref(), line -> { }, () -> false)));
                break;
            case DELETE:
                dialogs.confirmByName(vm, () -> task(vm, ui.i18n().get("console.task.delete", id),
                        () -> services.provisioning().snippets().deleteVm(session().connection(), vm.ref(), line -> { },
                                () -> false, new FxHostKeyPrompt(ui.dialogs(), ui.i18n()))));
                break;
            default:
                console(vm);
                break;
        }
    }

    /** A clone request made elsewhere (tests, scripts of the window). */
    void cloneNow(VmInfo vm, CloneRequest r) {
        task(vm, ui.i18n().get("console.task.clone", vm.ref().id(), r.name()),
                () -> session().cloneVm(r, line -> { }, () -> false));
    }

    private void power(VmInfo vm, VmAction a) {
        task(vm, ui.i18n().get(powerKey(a), vm.ref().id(), vm.ref().node()), () -> {
            TaskOutcome out = session().vmAction(vm.ref(), a, line -> { }, () -> false);
            if (out.ok() && a == VmAction.START && session().can(Capability.GUEST_FILE_WRITE)) {
                services.provisioning().snippets().pending(session().connection(), vm.ref())
                        .ifPresent(p -> Platform.runLater(() -> removeSnippetAfterFirstBoot(p)));
            }
            return out;
        });
    }

    /**
     * A new VM's first start: where GPUForge left the template's user-data as a snippet, it is removed once the
     * first boot reported done, in a task of its own.
     */
    private void removeSnippetAfterFirstBoot(SnippetCleanup.Pending p) {
        ui.tasks().supply(ui.i18n().get("vmcreate.task.snippet", p.vm().id()), () -> services.provisioning()
                .snippets().afterFirstBoot(p, line -> { }, () -> false, new FxHostKeyPrompt(ui.dialogs(),
                        ui.i18n()))).start();
    }

    private static String powerKey(VmAction a) {
        switch (a) {
            case START:
                return "console.task.power.start";
            case SHUTDOWN:
                return "console.task.power.shutdown";
            case REBOOT:
                return "console.task.power.reboot";
            default:
                return "console.task.power.stop";
        }
    }

    private void task(VmInfo vm, String name, Callable<TaskOutcome> work) {
        ConnectionTasks.run(ui, services, cluster, name, work);
    }

    private void console(VmInfo vm) {
        String source = session().connection().name();
        ui.tasks().supply(ui.i18n().get("console.task.console", vm.ref().id()),
                () -> services.consoles().open(session().connection(), vm.ref(), vm.name()))
                .onSuccess(l -> services.events().info(source, ui.i18n().get("console.event.console", vm.ref().id(),
                        String.join(" ", l.command()))))
                .onError(t -> ui.dialogs().showError("dialog.error.title", ui.i18n().get("console.event.consoleFailed",
                        vm.ref().id(), t.getMessage()), t))
                .start();
    }
}
