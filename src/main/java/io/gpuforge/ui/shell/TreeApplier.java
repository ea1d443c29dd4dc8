package io.gpuforge.ui.shell;

import io.gpuforge.ui.common.NavItem;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import javafx.scene.control.TreeItem;

/**
 * Brings a connection's entry of the tree to a wanted content (computed off the FX thread by {@link TreeContent})
 * in bounded slices, one per FX event: first the list of nodes, then the children of a few nodes at a time, about
 * {@link #SLICE} touched items per slice, so that no pulse of the window waits on a whole 2,000-VM cluster. A newer
 * content for the same entry makes the slices of an older one stop. Each connection keeps a pool of its items, so
 * an item that a filter took away comes back as the same {@link TreeItem} (selection and expansion stay). FX thread.
 */
final class TreeApplier {

    /**
     * About this many touched items per slice (a node's children are never split): a node of a 2,000-VM cluster's 16
     * (125 VMs) per frame. With 200 (two nodes a frame) the longest frame of ConsoleTreeBench was 44–52 ms, with 100
     * 31–48 ms, and the whole load took as long (0.84–0.99 s).
     */
    static final int SLICE = 100;

    private final Executor next;
    private final Consumer<Runnable> around;
    private final Map<TreeItem<NavItem>, Integer> generations = new HashMap<>();
    private final Map<TreeItem<NavItem>, Map<String, TreeItem<NavItem>>> pools = new HashMap<>();

    /**
     * @param next   runs the next slice (Platform::runLater in the window; Runnable::run applies all at once)
     * @param around runs a slice (the tree keeps its selection around it)
     */
    TreeApplier(Executor next, Consumer<Runnable> around) {
        this.next = next;
        this.around = around;
    }

    /** Starts applying {@code wanted} below {@code parent}; {@code done} runs after the last slice. */
    void apply(TreeItem<NavItem> parent, List<TreeSync.Wanted> wanted, Consumer<TreeItem<NavItem>> eachNode,
               Runnable done) {
        int generation = generations.merge(parent, 1, Integer::sum);
        Map<String, TreeItem<NavItem>> pool = pools.computeIfAbsent(parent, p -> new HashMap<>());
        List<TreeSync.Wanted> nodes = new ArrayList<>(wanted.size());
        for (TreeSync.Wanted w : wanted) {
            nodes.add(new TreeSync.Wanted(w.item(), null));
        }
        around.accept(() -> TreeSync.sync(parent, nodes, pool));
        slice(parent, wanted, 0, generation, pool, eachNode, done);
    }

    private void slice(TreeItem<NavItem> parent, List<TreeSync.Wanted> wanted, int from, int generation,
                       Map<String, TreeItem<NavItem>> pool, Consumer<TreeItem<NavItem>> eachNode, Runnable done) {
        if (generations.getOrDefault(parent, 0) != generation) {
            return; // a newer content took over
        }
        int[] at = {from};
        around.accept(() -> {
            int touched = 0;
            while (at[0] < wanted.size() && touched < SLICE) {
                TreeSync.Wanted w = wanted.get(at[0]++);
                TreeItem<NavItem> node = pool.get(w.item().id());
                if (node != null && node.getParent() == parent) {
                    touched += 1 + TreeSync.sync(node, w.children(), pool);
                    eachNode.accept(node);
                }
            }
        });
        if (at[0] < wanted.size()) {
            next.execute(() -> slice(parent, wanted, at[0], generation, pool, eachNode, done));
        } else {
            done.run();
        }
    }

    /** Lets go of the items that are no longer in the connection's inventory (ids: all it holds now). */
    void keepOnly(TreeItem<NavItem> parent, Set<String> ids) {
        Map<String, TreeItem<NavItem>> pool = pools.get(parent);
        if (pool != null) {
            pool.keySet().retainAll(new HashSet<>(ids));
        }
    }

    /** The connection's entry went: its slices stop and its items are let go. */
    void forget(TreeItem<NavItem> parent) {
        generations.merge(parent, 1, Integer::sum);
        pools.remove(parent);
    }
}
