package io.gpuforge.testing;

import io.gpuforge.ui.common.NavItem;
import java.util.concurrent.TimeUnit;
import javafx.scene.control.TreeItem;
import javafx.scene.control.TreeView;
import org.testfx.api.FxRobot;
import org.testfx.util.WaitForAsyncUtils;

/** What the main window's navigation tree holds, read on the FX thread (the benches wait on it). */
public final class NavigationTrees {

    private NavigationTrees() {
    }

    /** The VMs under the nodes of every connection in the tree. */
    @SuppressWarnings("unchecked")
    public static int vms(FxRobot robot) throws Exception {
        return WaitForAsyncUtils.asyncFx(() -> {
            TreeView<NavItem> tree = robot.lookup("#navigation").queryAs(TreeView.class);
            int n = 0;
            for (TreeItem<NavItem> conn : tree.getRoot().getChildren()) {
                for (TreeItem<NavItem> node : conn.getChildren()) {
                    n += (int) node.getChildren().stream().filter(t -> t.getValue().kind() == NavItem.Kind.VM).count();
                }
            }
            return n;
        }).get(10, TimeUnit.SECONDS);
    }
}
