package io.gpuforge.ui.cluster;

import io.gpuforge.app.ConnectionSession;
import io.gpuforge.domain.ChangeEvent;
import io.gpuforge.domain.ClusterInventory;
import io.gpuforge.domain.HostFacts;
import io.gpuforge.domain.NodePci;
import io.gpuforge.ui.common.BackgroundTasks;
import io.gpuforge.ui.common.I18n;
import io.gpuforge.ui.common.Loadable;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import javafx.application.Platform;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.SimpleObjectProperty;

/**
 * What the window keeps of one hypervisor connection while it runs: its inventory, the PCI devices of the node
 * chosen in the IOMMU tab, and the live change feed, which makes the inventory reload (a burst of changes becomes
 * one reload). Lives as long as the connection is in the tree; FX thread except where noted.
 */
final class ClusterModel {

    private final ConnectionSession session;
    private final Loadable<ClusterInventory> inventory;
    private final ObjectProperty<String> node = new SimpleObjectProperty<>();
    private final Loadable<HostFacts> pci;
    private final BackgroundTasks tasks;
    private final I18n i18n;
    private AutoCloseable watch;
    private boolean watching;

    ClusterModel(ConnectionSession session, BackgroundTasks tasks, I18n i18n) {
        this.session = session;
        this.tasks = tasks;
        this.i18n = i18n;
        String name = session.connection().name();
        inventory = new Loadable<>(tasks, session::inventory, i18n.get("task.clusterInventory", name));
        pci = new Loadable<>(tasks, () -> facts(session.nodePci(node.get())), i18n.get("task.nodePci", name));
        inventory.valueProperty().addListener((o, a, inv) -> {
            if (inv != null && (node.get() == null || inv.nodes().stream().noneMatch(n -> n.name().equals(node.get())))) {
                node.set(inv.nodes().isEmpty() ? null : inv.nodes().get(0).name());
            }
        });
        node.addListener((o, a, n) -> {
            if (n != null && pci.started()) {
                pci.refresh();
            }
        });
    }

    /** What a hypervisor's PCI listing tells, as facts for the IOMMU view (host files are not read). */
    private HostFacts facts(NodePci p) {
        return HostFacts.fromListing(session.connection().kind().db() + ":" + session.connection().name() + "/" + p.node(),
                p.inventory()).withSource(p.node(), List.of(i18n.get("cluster.pci.unknowns")));
    }

    ConnectionSession session() {
        return session;
    }

    Loadable<ClusterInventory> inventory() {
        return inventory;
    }

    Loadable<HostFacts> pci() {
        return pci;
    }

    ObjectProperty<String> node() {
        return node;
    }

    /** Starts the change feed once; {@code onEvent} hears each change on the FX thread (for the events panel). */
    void watch(Consumer<ChangeEvent> onEvent, Consumer<Throwable> onFailure) {
        if (watching) {
            return;
        }
        watching = true;
        tasks.supply(i18n.get("task.watchConnection", session.connection().name()), () -> session.watch(e ->
                Platform.runLater(() -> {
                    onEvent.accept(e);
                    inventory.changed();
                })))
                .onSuccess(w -> watch = w)
                .onError(onFailure::accept)
                .start();
    }

    /** F5: what was read is read again. */
    void refresh() {
        if (inventory.started()) {
            inventory.refresh();
        }
        if (pci.started()) {
            pci.refresh();
        }
    }

    Optional<ClusterInventory> current() {
        return Optional.ofNullable(inventory.valueProperty().get());
    }

    /** Stops the feed; never waits on the network (the session closes it in the background). */
    void dispose() {
        if (watch != null) {
            try {
                watch.close();
            } catch (Exception e) {
                // the session closes in the background and does not throw
            }
            watch = null;
        }
    }
}
