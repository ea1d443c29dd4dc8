package io.gpuforge.ui.shell;

import io.gpuforge.domain.ClusterInventory;
import io.gpuforge.domain.connections.ConnectionInfo;
import io.gpuforge.domain.connections.ConnectionState;
import io.gpuforge.domain.share.NodeShares;
import io.gpuforge.ui.cluster.ClusterModel;
import io.gpuforge.ui.cluster.HypervisorPages;
import java.util.HashMap;
import java.util.Map;
import javafx.application.Platform;
import javafx.beans.value.ChangeListener;

/**
 * Keeps the tree's entry of each hypervisor connection in step with its model: the inventory (nodes, VMs,
 * containers, GPUs) as it is read again after each change, the containers' use of the GPUs, and the connection's
 * state. Lets go of a connection's model when it is
 * removed or edited. FX thread.
 */
final class ConnectionWatch {

    private record Watched(ClusterModel model, ChangeListener<ClusterInventory> inventory,
                           ChangeListener<Map<String, NodeShares>> shares, ChangeListener<ConnectionState> state) {
    }

    private final HypervisorPages hypervisors;
    private final NavigationTree tree;
    private final Map<Long, Watched> watched = new HashMap<>();
    private final FramePacer pacer = new FramePacer();

    ConnectionWatch(HypervisorPages hypervisors, NavigationTree tree) {
        this.hypervisors = hypervisors;
        this.tree = tree;
        // the tree's content is computed in the background and applied in slices, one per pulse
        tree.workOn(hypervisors.background(), Platform::runLater, pacer);
    }

    void watch(ConnectionInfo c) {
        forget(c.id());
        ClusterModel m = hypervisors.start(c);
        ChangeListener<ClusterInventory> inv = (o, a, b) -> tree.showInventory(c, b);
        ChangeListener<Map<String, NodeShares>> sh = (o, a, b) -> tree.showShares(c, b);
        ChangeListener<ConnectionState> st = (o, a, b) -> tree.showState(c, b);
        m.inventory().valueProperty().addListener(inv);
        m.shares().valueProperty().addListener(sh);
        m.stateProperty().addListener(st);
        watched.put(c.id(), new Watched(m, inv, sh, st));
        tree.showState(c, m.stateProperty().get());
        if (m.shares().valueProperty().get() != null) {
            tree.showShares(c, m.shares().valueProperty().get());
        }
        if (m.inventory().valueProperty().get() != null) {
            tree.showInventory(c, m.inventory().valueProperty().get());
        }
    }

    void forget(long id) {
        Watched w = watched.remove(id);
        if (w != null) {
            w.model().inventory().valueProperty().removeListener(w.inventory());
            w.model().shares().valueProperty().removeListener(w.shares());
            w.model().stateProperty().removeListener(w.state());
        }
    }

    void dispose() {
        watched.keySet().stream().toList().forEach(this::forget);
        pacer.clear();
    }
}
