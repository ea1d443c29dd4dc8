package io.gpuforge.ui.cluster;

import io.gpuforge.app.host.HostTarget;
import io.gpuforge.domain.Capability;
import io.gpuforge.domain.share.ContainerSummary;
import io.gpuforge.domain.share.ContainerUse;
import io.gpuforge.domain.tasks.TaskOutcome;
import io.gpuforge.domain.vm.VmAction;
import io.gpuforge.ui.common.FxHostKeyPrompt;
import io.gpuforge.ui.common.UiContext;
import io.gpuforge.ui.share.PlanWindow;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import javafx.stage.Window;
import org.kordamp.ikonli.feather.Feather;

/**
 * What can be done to a container from its page and from the tree: start, shut down, stop (asked first), delete
 * (asked first), and "Migrate to devN…" for one given its GPU the old way. Each runs in the background as a task of
 * the connection (written to the task log), says how it ended in the events panel, and makes the inventory and the
 * shares read again. FX thread.
 */
public final class ContainerActions {

    /** The actions, as the page's buttons and the tree's menu items name them. */
    public enum Kind { START, SHUTDOWN, STOP, DELETE, MIGRATE }

    private final UiContext ui;
    private final ClusterServices services;
    private final ClusterModel cluster;
    private final Supplier<Window> owner;
    private final VmDialogs dialogs;

    ContainerActions(UiContext ui, ClusterServices services, ClusterModel cluster, Supplier<Window> owner) {
        this.ui = ui;
        this.services = services;
        this.cluster = cluster;
        this.owner = owner;
        this.dialogs = new VmDialogs(ui.i18n(), owner, ui.theme()::style);
    }

    /** Whether {@code k} can be done to {@code ct} now. */
    public boolean can(Kind k, ContainerSummary ct) {
        if (ct == null || !cluster.session().can(Capability.CONTAINERS)) {
            return false;
        }
        return switch (k) {
            case START -> !ct.running();
            case SHUTDOWN, STOP -> ct.running();
            case DELETE -> !ct.running();
            case MIGRATE -> !ct.running() && cluster.shares(ct.node()).flatMap(s -> s.use(ct.vmid()))
                    .map(ContainerUse::legacy).orElse(false);
        };
    }

    /** The bundle key of an action's label. */
    public static String key(Kind k) {
        return switch (k) {
            case START -> "console.vm.start";
            case SHUTDOWN -> "console.vm.shutdown";
            case STOP -> "console.vm.stop";
            case DELETE -> "console.vm.delete";
            case MIGRATE -> "share.ct.migrate";
        };
    }

    public static Feather icon(Kind k) {
        return switch (k) {
            case START -> Feather.PLAY;
            case SHUTDOWN -> Feather.POWER;
            case STOP -> Feather.SQUARE;
            case DELETE -> Feather.TRASH_2;
            case MIGRATE -> Feather.SHUFFLE;
        };
    }

    /** Runs {@code k} on {@code ct}, asking first where it cannot be taken back. */
    public void run(Kind k, ContainerSummary ct) {
        String id = String.valueOf(ct.vmid());
        var i18n = ui.i18n();
        switch (k) {
            case START -> power(ct, VmAction.START);
            case SHUTDOWN -> power(ct, VmAction.SHUTDOWN);
            case STOP -> dialogs.confirm("share.ct.stop.title", i18n.get("share.ct.stop.text", id, ct.name()),
                    "console.vm.stop.ok", () -> power(ct, VmAction.STOP));
            case DELETE -> dialogs.confirm("share.ct.delete.title", i18n.get("share.ct.delete.text", id, ct.name(),
                    ct.node()), "share.ct.delete.ok", () -> task(i18n.get("share.task.ctDelete", id),
                    () -> cluster.session().deleteContainer(ct.node(), ct.vmid(), line -> { }, () -> false)));
            default -> migrate(ct);
        }
    }

    private void power(ContainerSummary ct, VmAction a) {
        String key = switch (a) {
            case START -> "share.task.ctStart";
            case SHUTDOWN -> "share.task.ctShutdown";
            default -> "share.task.ctStop";
        };
        task(ui.i18n().get(key, ct.vmid(), ct.node()), () -> cluster.session().containerAction(ct.node(), ct.vmid(), a,
                line -> { }, () -> false));
    }

    /** Opens the plan that moves the container's raw lxc lines to devN entries on its node's host. */
    private void migrate(ContainerSummary ct) {
        HostTarget host = new HostTarget.Linked(cluster.session().connection(), ct.node());
        FxHostKeyPrompt prompt = new FxHostKeyPrompt(ui.dialogs(), ui.i18n());
        PlanWindow.open(ui, owner.get(), ui.i18n().get("share.migrate.title", ct.vmid(), ct.name()),
                ui.i18n().get("share.migrate.intro", ct.vmid(), ct.node()),
                () -> services.share().shares().migrationPlan(host, ct.vmid(), ct.running(), prompt),
                (confirm, progress) -> services.share().shares().migrate(host, ct.vmid(), ct.running(), confirm, progress,
                        prompt), cluster::sharesChanged);
    }

    private void task(String name, Callable<TaskOutcome> work) {
        ConnectionTasks.run(ui, services, cluster, name, work);
    }
}
