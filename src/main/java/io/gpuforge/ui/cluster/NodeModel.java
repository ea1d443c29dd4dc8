package io.gpuforge.ui.cluster;

import io.gpuforge.app.passthrough.NodeReadiness;
import io.gpuforge.domain.vm.ChangeEvent;
import io.gpuforge.domain.host.HostFacts;
import io.gpuforge.domain.telemetry.NodeHistory;
import io.gpuforge.domain.NodeStatus;
import io.gpuforge.ui.common.Loadable;
import java.util.function.Supplier;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.SimpleObjectProperty;

/**
 * A node's page data: its status, its recorded history over the chosen time frame, its PCI devices with IOMMU
 * groups, and the passthrough verdicts of its GPUs; each read when first shown, again on F5, and the status again
 * when the change feed says the node changed. FX thread.
 */
final class NodeModel {

    private final String node;
    private final Loadable<NodeStatus> status;
    private final Loadable<NodeHistory> history;
    private final Loadable<HostFacts> pci;
    private final ObjectProperty<NodeHistory.Timeframe> timeframe = new SimpleObjectProperty<>(NodeHistory.Timeframe.HOUR);
    private volatile NodeHistory.Timeframe wanted = NodeHistory.Timeframe.HOUR;
    private Loadable<NodeReadiness.Result> readiness;

    NodeModel(ClusterModel cluster, String node) {
        this.node = node;
        String name = cluster.session().connection().name();
        status = new Loadable<>(cluster.tasks(), () -> cluster.session().nodeStatus(node),
                cluster.i18n().get("console.task.nodeStatus", node, name));
        history = new Loadable<>(cluster.tasks(), () -> cluster.session().nodeHistory(node, wanted),
                cluster.i18n().get("console.task.nodeHistory", node, name));
        pci = new Loadable<>(cluster.tasks(), () -> cluster.facts(cluster.session().nodePci(node)),
                cluster.i18n().get("console.task.nodePci", node, name));
        timeframe.addListener((o, a, b) -> {
            wanted = b;
            if (history.started()) {
                history.refresh();
            }
        });
    }

    /** The readiness reads over the node's host link: made by the page, which knows how to ask for host keys. */
    Loadable<NodeReadiness.Result> readiness(Supplier<Loadable<NodeReadiness.Result>> make) {
        if (readiness == null) {
            readiness = make.get();
        }
        return readiness;
    }

    String node() {
        return node;
    }

    Loadable<NodeStatus> status() {
        return status;
    }

    Loadable<NodeHistory> history() {
        return history;
    }

    Loadable<HostFacts> pci() {
        return pci;
    }

    ObjectProperty<NodeHistory.Timeframe> timeframe() {
        return timeframe;
    }

    void changed(ChangeEvent e) {
        boolean here = e.node().map(node::equals).orElse(e.kind() == ChangeEvent.Kind.INVENTORY);
        if (here && (e.kind() == ChangeEvent.Kind.NODE_STATE || e.kind() == ChangeEvent.Kind.INVENTORY)
                && status.started()) {
            status.changed();
        }
    }

    void refresh() {
        for (Loadable<?> l : new Loadable<?>[] {status, history, pci, readiness}) {
            if (l != null && l.started()) {
                l.refresh();
            }
        }
    }
}
