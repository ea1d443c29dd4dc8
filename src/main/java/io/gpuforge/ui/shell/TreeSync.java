package io.gpuforge.ui.shell;

import io.gpuforge.ui.common.NavItem;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javafx.collections.ObservableList;
import javafx.scene.control.TreeItem;

/**
 * Brings a tree item's children to a wanted list in place: an item whose id is still wanted keeps its
 * {@link TreeItem} (so its selection and expansion stay, and the view does not scroll), gets the new value when it
 * changed, and moves only when its place changed; new ids get new items, the others go. Runs of unchanged children
 * cost nothing, so a change feed that changes one VM out of 2,000 changes one cell.
 */
final class TreeSync {

    /** What is wanted below a parent: the item, and what is wanted below it (null: leave its children alone). */
    record Wanted(NavItem item, List<Wanted> children) {
        static Wanted leaf(NavItem item) {
            return new Wanted(item, List.of());
        }
    }

    /** More insertions and removals than this in one list are applied as one replacement. */
    static final int BULK = 16;

    private TreeSync() {
    }

    /** Makes {@code parent}'s children what {@code wanted} says, recursively; returns how many items were touched. */
    static int sync(TreeItem<NavItem> parent, List<Wanted> wanted) {
        return sync(parent, wanted, new HashMap<>());
    }

    /**
     * As {@link #sync(TreeItem, List)}, taking the item of an id that is not among the children from {@code pool}
     * when it is there (an item a filter took away comes back as the same item, expanded as it was), and putting the
     * items it makes into it.
     */
    static int sync(TreeItem<NavItem> parent, List<Wanted> wanted, Map<String, TreeItem<NavItem>> pool) {
        ObservableList<TreeItem<NavItem>> children = parent.getChildren();
        Map<String, TreeItem<NavItem>> byId = new HashMap<>();
        for (TreeItem<NavItem> c : children) {
            byId.put(c.getValue().id(), c);
        }
        List<TreeItem<NavItem>> next = new ArrayList<>(wanted.size());
        int touched = 0;
        for (Wanted w : wanted) {
            TreeItem<NavItem> item = byId.remove(w.item().id());
            if (item == null) {
                item = pool.get(w.item().id());
                if (item == null || item.getParent() != null && item.getParent() != parent) {
                    item = new TreeItem<>(w.item());
                    pool.put(w.item().id(), item);
                } else if (!item.getValue().equals(w.item())) {
                    item.setValue(w.item());
                }
                touched++;
            } else if (!item.getValue().equals(w.item())) {
                item.setValue(w.item());
                touched++;
            }
            if (w.children() != null) {
                touched += sync(item, w.children(), pool);
            }
            next.add(item);
        }
        if (!sameOrder(children, next)) {
            touched += Math.abs(children.size() - next.size()) + 1;
            apply(children, next, byId.values());
        }
        return touched;
    }

    /**
     * Edits the list as little as possible: the items that went are removed in one change, new ones inserted where
     * they belong; only a change of order among kept items replaces the whole list (a tree's selection model keeps
     * its selection across removals and insertions elsewhere, not across a replacement).
     */
    private static void apply(ObservableList<TreeItem<NavItem>> children, List<TreeItem<NavItem>> next,
                              Collection<TreeItem<NavItem>> gone) {
        int inserted = next.size() - (children.size() - gone.size());
        if (children.isEmpty() || next.isEmpty() || gone.size() + inserted > BULK) {
            // one change instead of many: each change of a tree item's children costs the view a walk of the tree
            children.setAll(next);
            return;
        }
        if (!gone.isEmpty()) {
            children.removeAll(new ArrayList<>(gone));
        }
        Set<TreeItem<NavItem>> current = Collections.newSetFromMap(new IdentityHashMap<>());
        current.addAll(children);
        int k = 0;
        for (TreeItem<NavItem> n : next) {
            if (current.contains(n)) {
                if (children.get(k) != n) {
                    children.setAll(next);
                    return;
                }
                k++;
            }
        }
        for (int i = 0; i < next.size(); i++) {
            if (i == children.size()) {
                children.addAll(next.subList(i, next.size()));
                return;
            }
            if (children.get(i) != next.get(i)) {
                children.add(i, next.get(i));
            }
        }
    }

    private static boolean sameOrder(List<TreeItem<NavItem>> a, List<TreeItem<NavItem>> b) {
        if (a.size() != b.size()) {
            return false;
        }
        for (int i = 0; i < a.size(); i++) {
            if (a.get(i) != b.get(i)) {
                return false;
            }
        }
        return true;
    }
}
