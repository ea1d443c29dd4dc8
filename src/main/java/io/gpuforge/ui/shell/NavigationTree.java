package io.gpuforge.ui.shell;

import io.gpuforge.domain.ClusterInventory;
import io.gpuforge.domain.connections.ConnectionInfo;
import io.gpuforge.domain.connections.ConnectionState;
import io.gpuforge.domain.pci.GpuPlacement;
import io.gpuforge.domain.host.HostFacts;
import io.gpuforge.domain.host.HostSummary;
import io.gpuforge.domain.pci.PciDevice;
import io.gpuforge.domain.share.NodeShares;
import io.gpuforge.ui.cluster.ConsoleFormat;
import io.gpuforge.app.monitor.GpuFleet;
import io.gpuforge.ui.common.I18n;
import io.gpuforge.ui.common.NavItem;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Function;
import javafx.beans.property.IntegerProperty;
import javafx.beans.property.SimpleIntegerProperty;
import javafx.animation.PauseTransition;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.geometry.Insets;
import javafx.scene.control.MenuItem;
import javafx.scene.control.TextField;
import javafx.scene.control.TreeItem;
import javafx.scene.control.TreeView;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;
import javafx.util.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The left-hand tree: this computer, the saved connections with their state, and below a hypervisor connection its
 * nodes with their VMs (state icon, id, name) and GPUs (model, where assigned). It is brought up to date in place
 * ({@link TreeSync}) when an inventory arrives, so selection, expansion and scroll stay; a search field filters it.
 */
final class NavigationTree {

    private static final Logger LOG = LoggerFactory.getLogger(NavigationTree.class);

    private final TreeView<NavItem> view = new TreeView<>();
    private final TreeItem<NavItem> local = new TreeItem<>(NavItem.thisComputer());
    private final TextField search = new TextField();
    private final VBox box;
    private final I18n i18n;
    private final TreeSuffixes suffixText;
    private final Map<Long, ClusterInventory> inventories = new HashMap<>();
    private final Map<Long, Map<String, NodeShares>> shares = new HashMap<>();
    /** The newest content asked for, per connection: an older one that is computed later is dropped. */
    private final Map<Long, Integer> requests = new HashMap<>();
    private final PauseTransition debounce = new PauseTransition(Duration.millis(150));
    private final TreeApplier applier;
    private Function<NavItem, List<MenuItem>> menus = item -> List.of();
    /** Where the tree's content is computed and where its slices run: at once, until the window says otherwise. */
    private Executor compute = Runnable::run;
    private Executor fx = Runnable::run;
    /** Where the slices after the first run: at once until the window says otherwise (one per pulse, there). */
    private Executor slices = Runnable::run;
    /** The nodes that were expanded when a search began: clearing it collapses the others again. */
    private Set<TreeItem<NavItem>> expandedBeforeSearch;
    private boolean syncing;
    /** Changes when what follows labels changed: the cells on screen show it again. */
    private final IntegerProperty suffixes = new SimpleIntegerProperty();
    private TreeGpuReadings readings;

    NavigationTree(I18n i18n) {
        this.i18n = i18n;
        this.suffixText = new TreeSuffixes(i18n);
        TreeItem<NavItem> root = new TreeItem<>(new NavItem(NavItem.Kind.CONNECTION, "root", "", false));
        root.getChildren().add(local);
        local.setExpanded(true);
        view.setRoot(root);
        view.setShowRoot(false);
        view.setId("navigation");
        view.getStyleClass().add("navigation");
        view.setCellFactory(tv -> new NavigationCell(i18n, suffixText::suffix, suffixText::hover, suffixes,
                item -> menus.apply(item)));
        applier = new TreeApplier(r -> slices.execute(r), this::keepingSelection);
        search.setId("navigation-search");
        search.promptTextProperty().bind(i18n.text("console.tree.search"));
        debounce.setOnFinished(e -> refilter());
        search.textProperty().addListener((o, a, b) -> debounce.playFromStart());
        box = new VBox(6, search, view);
        box.setPadding(new Insets(6, 0, 0, 0));
        VBox.setVgrow(view, Priority.ALWAYS);
        box.getStyleClass().add("navigation-box");
    }

    /** Shows, on the GPUs' rows, which have no data while the monitor watches them. */
    void followReadings(GpuFleet fleet) {
        readings = new TreeGpuReadings(fleet, lost -> {
            suffixText.noData(lost);
            suffixesChanged();
        });
    }

    /**
     * What follows some labels changed (a connection's state, a GPU's "no data since"): the cells on screen show
     * their items again, in place. Not {@code view.refresh()}, which made every visible cell of the tree anew (their
     * CSS and text) and closed a row's tooltip or menu that was open; nor a value-changed event on the item, which
     * has the tree rebuild every visible cell.
     */
    private void suffixesChanged() {
        suffixes.set(suffixes.get() + 1);
    }

    void dispose() {
        if (readings != null) {
            readings.close();
        }
    }

    /** What the context menu of an item offers (the window knows the actions). */
    void menus(Function<NavItem, List<MenuItem>> m) {
        menus = m;
    }

    List<MenuItem> menuFor(NavItem item) {
        return menus.apply(item);
    }

    /** Shows the local host's node under "This computer" once its facts are known. */
    void showLocalHost(HostSummary summary) {
        NavItem node = new NavItem(NavItem.Kind.NODE, "local/" + summary.hostname(), summary.hostname(), false);
        Optional<TreeItem<NavItem>> existing = local.getChildren().stream()
                .filter(t -> t.getValue().kind() == NavItem.Kind.NODE).findFirst();
        if (existing.isPresent()) {
            existing.get().setValue(node);
        } else {
            local.getChildren().add(new TreeItem<>(node));
        }
    }

    /** Lists a host's GPUs under its tree entry (the node of this computer, or the SSH connection). */
    void showGpus(boolean thisComputer, Optional<ConnectionInfo> connection, HostFacts facts) {
        TreeItem<NavItem> parent;
        if (thisComputer) {
            parent = local.getChildren().stream().filter(t -> t.getValue().kind() == NavItem.Kind.NODE).findFirst()
                    .orElse(local);
        } else {
            parent = item(connection.get()).orElse(null);
            if (parent != null && inventories.containsKey(connection.get().id())) {
                return; // a hypervisor connection lists its GPUs under its nodes
            }
        }
        if (parent == null) {
            return;
        }
        parent.getChildren().removeIf(t -> t.getValue().kind() == NavItem.Kind.GPU);
        for (GpuPlacement g : facts.pci().gpus()) {
            String name = facts.pci().device(g.address()).flatMap(PciDevice::name).map(ConsoleFormat::shortName)
                    .orElse("GPU");
            parent.getChildren().add(new TreeItem<>(new NavItem(NavItem.Kind.GPU, parent.getValue().id() + "/gpu/"
                    + g.address(), name + " · " + g.address().toString().substring(5), false, connection)));
        }
        parent.setExpanded(true);
    }

    /** "NVIDIA Corporation GA102 [GeForce RTX 3090]" → "GeForce RTX 3090". */
    static String shortName(String name) {
        return ConsoleFormat.shortName(name);
    }

    private Optional<TreeItem<NavItem>> item(ConnectionInfo c) {
        return view.getRoot().getChildren().stream()
                .filter(t -> t.getValue().connection().map(x -> x.id() == c.id()).orElse(false)).findFirst();
    }

    boolean contains(ConnectionInfo c) {
        return item(c).isPresent();
    }

    void addConnection(ConnectionInfo c) {
        if (item(c).isEmpty()) {
            view.getRoot().getChildren().add(new TreeItem<>(NavItem.of(c)));
        }
    }

    /** A connection changed (edited): its entry follows, and so does everything below it. */
    void updateConnection(ConnectionInfo c) {
        item(c).ifPresent(t -> {
            t.setValue(NavItem.of(c));
            ClusterInventory inv = inventories.get(c.id());
            if (inv != null) {
                showInventory(c, inv);
            }
        });
    }

    void removeConnection(long id) {
        inventories.remove(id);
        shares.remove(id);
        suffixText.forget(id);
        requests.remove(id);
        view.getRoot().getChildren().stream().filter(t -> t.getValue().connection().map(x -> x.id() == id)
                .orElse(false)).forEach(applier::forget);
        view.getRoot().getChildren().removeIf(t -> t.getValue().connection().map(x -> x.id() == id).orElse(false));
    }

    /**
     * Where the content is computed (a background executor), where it is handed to the FX thread
     * ({@code Platform::runLater}) and where the slices after the first apply it (one per pulse: {@link FramePacer});
     * until this is called all run at once, on the caller's thread.
     */
    void workOn(Executor background, Executor fxThread, Executor perPulse) {
        compute = background;
        fx = fxThread;
        slices = perPulse;
    }

    /** What the hosts of a connection's nodes say of their GPUs' use by containers: the GPU rows say it too. */
    void showShares(ConnectionInfo c, Map<String, NodeShares> nodeShares) {
        shares.put(c.id(), nodeShares == null ? Map.of() : nodeShares);
        Optional<TreeItem<NavItem>> conn = item(c);
        if (conn.isPresent() && inventories.containsKey(c.id())) {
            request(c, conn.get(), Optional.empty());
        }
    }

    /** A hypervisor connection's nodes, VMs and GPUs, brought up to date in place; filtered by the search. */
    void showInventory(ConnectionInfo c, ClusterInventory inv) {
        Optional<TreeItem<NavItem>> conn = item(c);
        if (conn.isEmpty() || inv == null) {
            return;
        }
        boolean first = !inventories.containsKey(c.id());
        inventories.put(c.id(), inv);
        if (first) {
            conn.get().setExpanded(true);
        }
        request(c, conn.get(), Optional.empty());
    }

    /**
     * Computes what the connection's entry should hold (its inventory, the search) off the FX thread, then applies
     * it in slices; {@code restore}: the nodes to keep expanded when a search was cleared (the others collapse).
     */
    private void request(ConnectionInfo c, TreeItem<NavItem> conn, Optional<Set<TreeItem<NavItem>>> restore) {
        ClusterInventory inv = inventories.get(c.id());
        Map<String, NodeShares> nodeShares = shares.getOrDefault(c.id(), Map.of());
        String filter = filter();
        int generation = requests.merge(c.id(), 1, Integer::sum);
        try {
            compute.execute(() -> {
                List<TreeSync.Wanted> wanted = TreeContent.of(c, inv, nodeShares, filter, i18n);
                Set<String> all = filter.isEmpty() ? TreeContent.ids(wanted) : null;
                fx.execute(() -> {
                    if (requests.getOrDefault(c.id(), 0) != generation || item(c).orElse(null) != conn) {
                        return; // a newer inventory or search, or the connection went
                    }
                    if (all != null) {
                        applier.keepOnly(conn, all);
                    }
                    applier.apply(conn, wanted, node -> expansion(node, filter, restore), () -> {
                    });
                });
            });
        } catch (RejectedExecutionException e) {
            LOG.debug("The tree of {} is not brought up to date: the window is closing", c.name());
        }
    }

    /** A search shows every node it keeps expanded; clearing it collapses what the user had not expanded. */
    private void expansion(TreeItem<NavItem> node, String filter, Optional<Set<TreeItem<NavItem>>> restore) {
        if (!filter.isEmpty()) {
            node.setExpanded(true);
        } else if (restore.isPresent() && node.isExpanded() && !restore.get().contains(node) && !holdsSelection(node)) {
            node.setExpanded(false);
        }
    }

    private boolean holdsSelection(TreeItem<NavItem> node) {
        TreeItem<NavItem> t = view.getSelectionModel().getSelectedItem();
        while (t != null) {
            if (t == node) {
                return true;
            }
            t = t.getParent();
        }
        return false;
    }

    private String filter() {
        return search.getText() == null ? "" : search.getText().strip();
    }

    /**
     * Runs a sync of the tree; the item selected before is selected after, if it is still in the tree (a bulk
     * replacement of a list of children would otherwise move or drop the selection). Selection changes while it
     * runs are not the user's: {@link #syncing()} says so to the listeners.
     */
    private void keepingSelection(Runnable sync) {
        TreeItem<NavItem> selected = view.getSelectionModel().getSelectedItem();
        syncing = true;
        try {
            sync.run();
            if (selected != null && view.getSelectionModel().getSelectedItem() != selected && attached(selected)) {
                view.getSelectionModel().select(selected);
            }
        } finally {
            syncing = false;
        }
    }

    private boolean attached(TreeItem<NavItem> item) {
        TreeItem<NavItem> t = item;
        while (t.getParent() != null) {
            t = t.getParent();
        }
        return t == view.getRoot();
    }

    /** Whether the tree is being brought up to date now (a selection change then is not the user's). */
    boolean syncing() {
        return syncing;
    }

    /** How a connection is doing, shown after its name. */
    void showState(ConnectionInfo c, ConnectionState s) {
        suffixText.state(c.id(), s);
        suffixesChanged();
    }

    ConnectionState stateOf(long connectionId) {
        return suffixText.state(connectionId);
    }

    private void refilter() {
        String f = filter();
        Optional<Set<TreeItem<NavItem>>> restore = Optional.empty();
        if (!f.isEmpty() && expandedBeforeSearch == null) {
            expandedBeforeSearch = Collections.newSetFromMap(new IdentityHashMap<>());
            for (TreeItem<NavItem> conn : view.getRoot().getChildren()) {
                conn.getChildren().stream().filter(TreeItem::isExpanded).forEach(expandedBeforeSearch::add);
            }
        } else if (f.isEmpty() && expandedBeforeSearch != null) {
            restore = Optional.of(expandedBeforeSearch);
            expandedBeforeSearch = null;
        }
        for (TreeItem<NavItem> conn : view.getRoot().getChildren()) {
            Optional<ConnectionInfo> c = conn.getValue().connection();
            if (c.isPresent() && inventories.containsKey(c.get().id())) {
                if (!f.isEmpty()) {
                    conn.setExpanded(true);
                }
                request(c.get(), conn, restore);
            }
        }
    }

    /** Applies the search now (tests; the field waits a moment after each key). */
    void applyFilter() {
        debounce.stop();
        refilter();
    }

    void select(ConnectionInfo c) {
        item(c).ifPresent(t -> view.getSelectionModel().select(t));
    }

    void selectThisComputer() {
        view.getSelectionModel().select(local);
    }

    ReadOnlyObjectProperty<TreeItem<NavItem>> selectedItemProperty() {
        return view.getSelectionModel().selectedItemProperty();
    }

    TreeView<NavItem> view() {
        return view;
    }

    TextField search() {
        return search;
    }

    VBox box() {
        return box;
    }
}
