package io.gpuforge.ui.shell;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.domain.ClusterInventory;
import io.gpuforge.domain.connections.ConnectionInfo;
import io.gpuforge.domain.NodeInfo;
import io.gpuforge.domain.NodeState;
import io.gpuforge.domain.vm.VmInfo;
import io.gpuforge.domain.vm.VmRef;
import io.gpuforge.domain.vm.VmState;
import io.gpuforge.ui.common.I18n;
import io.gpuforge.ui.common.NavItem;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import javafx.css.PseudoClass;
import javafx.scene.Node;
import javafx.scene.Scene;
import javafx.scene.control.TreeCell;
import javafx.scene.control.TreeItem;
import javafx.stage.Stage;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/**
 * The tree of a 2,000-VM cluster: a search that takes most VMs of a node away (and clearing it, which brings them
 * back) keeps the selected VM selected, its node expanded, and tells nobody of a selection the user did not make.
 */
@Tag("ui")
@ExtendWith(ApplicationExtension.class)
class NavigationTreeTest {

    private final ConnectionInfo big = new ConnectionInfo(1, "big", ConnectionInfo.Kind.PROXMOX, "https://big:8006",
            "root@pam!gpuforge", Optional.empty());
    private NavigationTree tree;
    private final List<NavItem> userSelections = new ArrayList<>();

    @Start
    void start(Stage stage) {
        tree = new NavigationTree(new I18n(Locale.ENGLISH));
        tree.selectedItemProperty().addListener((o, a, now) -> {
            if (now != null && !tree.syncing()) {
                userSelections.add(now.getValue());
            }
        });
        stage.setScene(new Scene(tree.box(), 400, 800));
        stage.show();
    }

    private static ClusterInventory inventory() {
        List<NodeInfo> nodes = new ArrayList<>();
        List<VmInfo> vms = new ArrayList<>();
        for (int n = 0; n < 16; n++) {
            nodes.add(new NodeInfo(String.format("pve%02d", n + 1), NodeState.ONLINE, 8, 1L << 36,
                    OptionalDouble.empty(), OptionalLong.empty(), OptionalLong.empty()));
        }
        for (int v = 0; v < 2000; v++) {
            vms.add(new VmInfo(new VmRef(nodes.get(v % 16).name(), String.valueOf(100 + v)), "vm-" + (100 + v),
                    v % 3 == 0 ? VmState.STOPPED : VmState.RUNNING, false, 4, 1L << 33, Optional.empty()));
        }
        return new ClusterInventory("8.4.1", "big", nodes, vms, List.of());
    }

    private TreeItem<NavItem> connection() {
        return tree.view().getRoot().getChildren().get(1);
    }

    @Test
    void aSearchThatReplacesMostOfANodesVmsKeepsTheSelectedVm(FxRobot robot) {
        ClusterInventory inv = inventory();
        robot.interact(() -> {
            tree.addConnection(big);
            tree.showInventory(big, inv);
        });
        // vm-1900 is the VM at index 1800: on node 1800 % 16 = 8, pve09
        TreeItem<NavItem> node = connection().getChildren().stream()
                .filter(t -> t.getValue().label().equals("pve09")).findFirst().orElseThrow();
        TreeItem<NavItem> vm = node.getChildren().stream().filter(t -> t.getValue().label().equals("1900 vm-1900"))
                .findFirst().orElseThrow();
        robot.interact(() -> {
            node.setExpanded(true);
            tree.view().getSelectionModel().select(vm);
        });
        userSelections.clear();
        assertThat(node.getChildren()).hasSize(125);

        robot.interact(() -> {
            tree.search().setText("vm-19");
            tree.applyFilter();
        });
        assertThat(node.getChildren().size()).isLessThan(TreeSync.BULK).isGreaterThan(0);
        assertThat(tree.view().getSelectionModel().getSelectedItem()).isSameAs(vm);

        robot.interact(() -> {
            tree.search().setText("");
            tree.applyFilter();
        });
        assertThat(node.getChildren()).hasSize(125);
        assertThat(tree.view().getSelectionModel().getSelectedItem()).isSameAs(vm);
        assertThat(node.isExpanded()).isTrue();
        assertThat(userSelections).as("no page opens by itself").isEmpty();
    }

    /** A row reused for another VM (a scroll) says that VM's state: :stopped or :running, never the last one's. */
    @Test
    void eachVmRowSaysTheStateOfTheVmItShowsAlsoAfterAScroll(FxRobot robot) throws Exception {
        robot.interact(() -> {
            tree.addConnection(big);
            tree.showInventory(big, inventory());
        });
        TreeItem<NavItem> pve01 = connection().getChildren().stream()
                .filter(t -> t.getValue().label().equals("pve01")).findFirst().orElseThrow();
        robot.interact(() -> pve01.setExpanded(true));
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(rowStates(robot)).as("rows showing a stopped and a running VM").contains("stopped", "running");
        robot.interact(() -> tree.view().scrollTo(tree.view().getRow(pve01) + 40));
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(rowStates(robot)).contains("stopped", "running");
    }

    /** The states the visible VM rows say, after checking each says its own VM's. FX data. */
    @SuppressWarnings("unchecked")
    private static Set<String> rowStates(FxRobot robot) throws Exception {
        return WaitForAsyncUtils.asyncFx(() -> {
            Set<String> seen = new HashSet<>();
            for (Node n : robot.lookup(".tree-cell").queryAll()) {
                TreeCell<NavItem> c = (TreeCell<NavItem>) n;
                Optional<VmInfo> vm = c.isEmpty() || c.getItem() == null ? Optional.empty()
                        : c.getItem().target().flatMap(t -> t.vm());
                Set<String> says = c.getPseudoClassStates().stream().map(PseudoClass::getPseudoClassName)
                        .filter(Set.of("running", "stopped", "template")::contains).collect(Collectors.toSet());
                Set<String> expected = vm.map(v -> Set.of(v.state() == VmState.STOPPED ? "stopped" : "running"))
                        .orElse(Set.of());
                assertThat(says).as("row %s", c.getItem() == null ? "(empty)" : c.getItem().label())
                        .isEqualTo(expected);
                seen.addAll(says);
            }
            return seen;
        }).get(10, TimeUnit.SECONDS);
    }
}
