package io.gpuforge.ui.shell;

import io.gpuforge.domain.VmInfo;
import io.gpuforge.ui.common.I18n;
import io.gpuforge.ui.common.Icons;
import io.gpuforge.ui.common.NavItem;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import javafx.scene.control.ContextMenu;
import javafx.scene.control.MenuItem;
import javafx.application.Platform;
import javafx.scene.control.Tooltip;
import javafx.scene.control.TreeCell;
import javafx.scene.control.TreeView;
import org.kordamp.ikonli.feather.Feather;
import org.kordamp.ikonli.javafx.FontIcon;

/**
 * One row of the navigation tree, made cheap to redraw: the cell keeps one icon and changes only its glyph, and
 * touches its style classes only when the VM's state class changes (a new graphic or a new style class makes the
 * cell's CSS run again, which in a scrolling tree of 2,000 VMs is what costs).
 */
final class NavigationCell extends TreeCell<NavItem> {

    private static final List<String> STATE_CLASSES = List.of("vm-running", "vm-stopped", "vm-template");

    private final I18n i18n;
    private final Function<NavItem, String> suffix;
    private final FontIcon icon = Icons.of(Feather.BOX);
    /** A GPU's whole label (where it is assigned, through which mapping) when the tree is narrower than it. */
    private final Tooltip tip = new Tooltip();
    private String stateClass;
    private boolean bound;
    private boolean measuring;

    NavigationCell(I18n i18n, Function<NavItem, String> suffix, Function<NavItem, List<MenuItem>> menus) {
        this.i18n = i18n;
        this.suffix = suffix;
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
            unbindText();
            setText(null);
            setGraphic(null);
            setTooltip(null);
            state(null);
            return;
        }
        if (item.localized()) {
            if (!bound) {
                textProperty().bind(i18n.text(item.label()));
                bound = true;
            }
        } else {
            unbindText();
            setText(item.label() + suffix.apply(item));
        }
        if (item.kind() == NavItem.Kind.GPU) {
            tip.setText(item.label());
            setTooltip(tip);
        } else {
            setTooltip(null);
        }
        Feather glyph = glyph(item);
        if (icon.getIconCode() != glyph) {
            icon.setIconCode(glyph);
        }
        if (getGraphic() != icon) {
            setGraphic(icon);
        }
        fixHeight();
        Optional<VmInfo> vm = item.target().flatMap(t -> t.vm());
        state(vm.map(v -> v.template() ? "vm-template" : v.state().isRunning() ? "vm-running" : "vm-stopped")
                .orElse(null));
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

    private void unbindText() {
        if (bound) {
            textProperty().unbind();
            bound = false;
        }
    }

    private void state(String css) {
        if (css == null ? stateClass == null : css.equals(stateClass)) {
            return;
        }
        getStyleClass().removeAll(STATE_CLASSES);
        if (css != null) {
            getStyleClass().add(css);
        }
        stateClass = css;
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
            default:
                return Feather.CPU;
        }
    }
}
