package io.gpuforge.ui.shell;

import java.util.function.Function;
import javafx.beans.binding.StringBinding;
import javafx.scene.Node;
import javafx.scene.control.Tab;
import javafx.scene.control.TabPane;

/** The centre of the main window: one closable tab per opened item of the navigation tree. */
final class ContentArea {

    /** What to show for an item: its tab key (items that share a key share a tab), title and content. */
    record Page(String key, StringBinding title, Node graphic, Function<NavItem, Node> content) {
    }

    private final TabPane tabs = new TabPane();

    ContentArea() {
        tabs.setId("content-tabs");
        tabs.setTabClosingPolicy(TabPane.TabClosingPolicy.ALL_TABS);
    }

    void open(NavItem item, Page page) {
        for (Tab t : tabs.getTabs()) {
            if (page.key().equals(t.getId())) {
                tabs.getSelectionModel().select(t);
                return;
            }
        }
        Tab tab = new Tab();
        tab.setId(page.key());
        tab.textProperty().bind(page.title());
        tab.setGraphic(page.graphic());
        tab.setContent(page.content().apply(item));
        tabs.getTabs().add(tab);
        tabs.getSelectionModel().select(tab);
    }

    TabPane view() {
        return tabs;
    }
}
