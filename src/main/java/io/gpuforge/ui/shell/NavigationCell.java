package io.gpuforge.ui.shell;

import io.gpuforge.domain.vm.VmInfo;
import io.gpuforge.ui.cluster.ShareFormat;
import io.gpuforge.domain.share.ContainerSummary;
import io.gpuforge.ui.common.I18n;
import io.gpuforge.ui.common.Icons;
import io.gpuforge.ui.common.NavItem;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import javafx.application.Platform;
import javafx.beans.InvalidationListener;
import javafx.beans.Observable;
import javafx.beans.WeakInvalidationListener;
import javafx.css.PseudoClass;
import javafx.geometry.Pos;
import javafx.scene.control.ContentDisplay;
import javafx.scene.control.ContextMenu;
import javafx.scene.control.MenuItem;
import javafx.scene.control.Tooltip;
import javafx.scene.control.TreeCell;
import javafx.scene.control.TreeView;
import javafx.scene.layout.HBox;
import javafx.scene.text.Text;
import org.kordamp.ikonli.feather.Feather;
import org.kordamp.ikonli.javafx.FontIcon;

/**
 * One row of the navigation tree, made cheap to redraw. Its graphic (icon and label) is set once and never replaced,
 * and the label is a {@link Text} inside it rather than the cell's own text: a {@code Labeled} re-adds its text and
 * graphic to the scene whenever either changes, and each re-added node has its whole CSS matched again. A tree whose
 * item count changes (each slice of a 2,000-VM inventory, a search) empties every visible cell and fills it again in
 * the same layout pass; with the cell's own text that cost two CSS matches per row and slice, which is what the pulses
 * of the window waited on. An empty cell only hides its graphic. A VM's row says its state by a pseudo-class
 * ({@code :running}, {@code :stopped}, {@code :template}) for stylesheets to use: a style class would have the row's
 * CSS matched again, selectors and all, whenever a row shows a VM in another state (a scroll, each slice of a
 * load), where a pseudo-class that no selector names costs nothing.
 */
final class NavigationCell extends TreeCell<NavItem> {

    static final PseudoClass RUNNING = PseudoClass.getPseudoClass("running");
    static final PseudoClass STOPPED = PseudoClass.getPseudoClass("stopped");
    static final PseudoClass TEMPLATE = PseudoClass.getPseudoClass("template");

    private final I18n i18n;
    private final Function<NavItem, String> suffix;
    private final Function<NavItem, String> hover;
    private final FontIcon icon = Icons.of(Feather.BOX);
    /** The item's label, in the cell's font and text colour (which follow the theme and the selection). */
    private final Text label = new Text();
    private final HBox graphic = new HBox(icon, label);
    /** A GPU's whole label: the vendor's name, where it is assigned and through which mapping. */
    private final Tooltip tip = new Tooltip();
    private PseudoClass state;
    private boolean bound;
    private boolean measuring;
    /** Shows the item again when the suffixes change (held here: the tree holds it weakly). */
    private final InvalidationListener restate = o -> {
        if (!isEmpty() && getItem() != null) {
            updateItem(getItem(), false);
        }
    };

    /**
     * @param suffix what follows an item's label ("· reconnecting…", "· no data since 10:42:07")
     * @param hover  what a GPU's tooltip adds below its label (why it has no data), "" for nothing
     * @param suffixesChanged invalidated when suffixes or hovers changed: the cell shows its item again
     */
    NavigationCell(I18n i18n, Function<NavItem, String> suffix, Function<NavItem, String> hover,
                   Observable suffixesChanged, Function<NavItem, List<MenuItem>> menus) {
        this.i18n = i18n;
        suffixesChanged.addListener(new WeakInvalidationListener(restate));
        this.suffix = suffix;
        this.hover = hover;
        label.getStyleClass().add("navigation-label");
        label.fontProperty().bind(fontProperty());
        label.fillProperty().bind(textFillProperty());
        graphic.setAlignment(Pos.CENTER_LEFT);
        graphic.spacingProperty().bind(graphicTextGapProperty());
        shown(false);
        // what the row says, for screen readers (the cell's own text stays empty)
        accessibleTextProperty().bind(label.textProperty());
        setContentDisplay(ContentDisplay.GRAPHIC_ONLY);
        setGraphic(graphic);
        setOnContextMenuRequested(e -> {
            NavItem item = getItem();
            List<MenuItem> items = item == null ? List.of() : menus.apply(item);
            if (!items.isEmpty()) {
                ContextMenu m = new ContextMenu();
                m.setId("navigation-menu");
                m.getItems().setAll(items);
                m.show(this, e.getScreenX(), e.getScreenY());
            }
            e.consume();
        });
    }

    @Override
    protected void updateItem(NavItem item, boolean empty) {
        super.updateItem(item, empty);
        if (empty || item == null) {
            shown(false);
            // the skin shows or hides the arrow of a row that holds an item; an empty row's would stay as it was
            if (getDisclosureNode() != null) {
                getDisclosureNode().setVisible(false);
            }
            if (getTooltip() != null) {
                setTooltip(null);
            }
            state(null);
            return;
        }
        if (item.localized()) {
            if (!bound) {
                label.textProperty().bind(i18n.text(item.label()));
                bound = true;
            }
        } else {
            unbindText();
            String text = item.label() + suffix.apply(item);
            if (!text.equals(label.getText())) {
                label.setText(text);
            }
        }
        if (item.kind() == NavItem.Kind.GPU) {
            String why = hover.apply(item);
            tip.setText(item.target().flatMap(t -> t.gpu().map(g -> ShareFormat.tooltip(g, t.share(), i18n)))
                    .orElse(item.label()) + (why.isEmpty() ? "" : "\n" + why));
            if (getTooltip() != tip) {
                setTooltip(tip);
            }
        } else if (getTooltip() != null) {
            setTooltip(null);
        }
        Feather glyph = glyph(item);
        if (icon.getIconCode() != glyph) {
            icon.setIconCode(glyph);
        }
        shown(true);
        fixHeight();
        Optional<VmInfo> vm = item.target().flatMap(t -> t.vm());
        Optional<ContainerSummary> ct = item.target().flatMap(t -> t.container());
        state(vm.map(v -> v.template() ? TEMPLATE : v.state().isRunning() ? RUNNING : STOPPED)
                .or(() -> ct.map(c -> c.running() ? RUNNING : STOPPED)).orElse(null));
    }

    /**
     * Once the first row is drawn, every row gets its height: a tree with a fixed cell size does not measure rows to
     * estimate its length (with 2,000 rows that measuring is what a pulse would wait on).
     */
    private void fixHeight() {
        TreeView<NavItem> tree = getTreeView();
        if (tree != null && tree.getFixedCellSize() <= 0 && !measuring) {
            measuring = true;
            Platform.runLater(() -> {
                measuring = false;
                double h = prefHeight(-1);
                if (h > 0 && getTreeView() == tree && tree.getFixedCellSize() <= 0) {
                    tree.setFixedCellSize(Math.ceil(h));
                }
            });
        }
    }

    /** An empty row hides its graphic and does not measure it (no width from the item it showed before). */
    private void shown(boolean shown) {
        if (graphic.isVisible() != shown) {
            graphic.setVisible(shown);
            graphic.setManaged(shown);
        }
    }

    private void unbindText() {
        if (bound) {
            label.textProperty().unbind();
            bound = false;
        }
    }

    private void state(PseudoClass now) {
        if (now == state) {
            return;
        }
        if (state != null) {
            pseudoClassStateChanged(state, false);
        }
        if (now != null) {
            pseudoClassStateChanged(now, true);
        }
        state = now;
    }

    static Feather glyph(NavItem item) {
        switch (item.kind()) {
            case CONNECTION:
                return item.connection().isPresent() ? Feather.SERVER : Feather.MONITOR;
            case NODE:
                return Feather.HARD_DRIVE;
            case VM:
                return item.target().flatMap(t -> t.vm()).map(v -> v.template() ? Feather.FILE
                        : v.state().isRunning() ? Feather.PLAY_CIRCLE : Feather.STOP_CIRCLE).orElse(Feather.BOX);
            case CONTAINER:
                return Feather.PACKAGE;
            default:
                return Feather.CPU;
        }
    }
}
