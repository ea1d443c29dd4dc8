package io.gpuforge.ui.shell;

import io.gpuforge.ui.common.NavItem;
import io.gpuforge.domain.ConnectionInfo;
import io.gpuforge.domain.GpuPlacement;
import io.gpuforge.domain.HostFacts;
import io.gpuforge.domain.HostSummary;
import io.gpuforge.domain.PciDevice;
import io.gpuforge.ui.common.I18n;
import io.gpuforge.ui.common.Icons;
import java.util.Optional;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.scene.control.TreeCell;
import javafx.scene.control.TreeItem;
import javafx.scene.control.TreeView;
import org.kordamp.ikonli.feather.Feather;

/** The left-hand tree: connections, their nodes, and under those the VMs and GPUs. */
final class NavigationTree {

    private final TreeView<NavItem> view = new TreeView<>();
    private final TreeItem<NavItem> local = new TreeItem<>(NavItem.thisComputer());

    NavigationTree(I18n i18n) {
        TreeItem<NavItem> root = new TreeItem<>(new NavItem(NavItem.Kind.CONNECTION, "root", "", false));
        root.getChildren().add(local);
        local.setExpanded(true);
        view.setRoot(root);
        view.setShowRoot(false);
        view.setId("navigation");
        view.getStyleClass().add("navigation");
        view.setCellFactory(tv -> new TreeCell<>() {
            @Override
            protected void updateItem(NavItem item, boolean empty) {
                super.updateItem(item, empty);
                textProperty().unbind();
                if (empty || item == null) {
                    setText(null);
                    setGraphic(null);
                    return;
                }
                if (item.localized()) {
                    textProperty().bind(i18n.text(item.label()));
                } else {
                    setText(item.label());
                }
                setGraphic(Icons.of(icon(item)));
            }
        });
    }

    private static Feather icon(NavItem item) {
        switch (item.kind()) {
            case CONNECTION:
                return item.connection().isPresent() ? Feather.SERVER : Feather.MONITOR;
            case NODE:
                return Feather.HARD_DRIVE;
            case VM:
                return Feather.BOX;
            default:
                return Feather.CPU;
        }
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
            parent = view.getRoot().getChildren().stream()
                    .filter(t -> t.getValue().connection().map(c -> c.id() == connection.get().id()).orElse(false))
                    .findFirst().orElse(null);
        }
        if (parent == null) {
            return;
        }
        parent.getChildren().removeIf(t -> t.getValue().kind() == NavItem.Kind.GPU);
        for (GpuPlacement g : facts.pci().gpus()) {
            String name = facts.pci().device(g.address()).flatMap(PciDevice::name).map(NavigationTree::shortName).orElse("GPU");
            parent.getChildren().add(new TreeItem<>(new NavItem(NavItem.Kind.GPU, parent.getValue().id() + "/gpu/"
                    + g.address(), name + " · " + g.address().toString().substring(5), false, connection)));
        }
        parent.setExpanded(true);
    }

    /** "NVIDIA Corporation GA102 [GeForce RTX 3090]" → "GeForce RTX 3090": the marketing name when there is one. */
    static String shortName(String name) {
        int open = name.lastIndexOf('[');
        int close = name.lastIndexOf(']');
        return open >= 0 && close > open + 1 ? name.substring(open + 1, close) : name;
    }

    void addConnection(ConnectionInfo c) {
        view.getRoot().getChildren().add(new TreeItem<>(NavItem.of(c)));
    }

    void select(ConnectionInfo c) {
        view.getRoot().getChildren().stream().filter(t -> t.getValue().id().equals("conn:" + c.id())).findFirst()
                .ifPresent(t -> view.getSelectionModel().select(t));
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

}
