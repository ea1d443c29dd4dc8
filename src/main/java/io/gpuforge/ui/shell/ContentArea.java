package io.gpuforge.ui.shell;

import io.gpuforge.ui.common.Disposable;
import io.gpuforge.ui.common.NavItem;
import io.gpuforge.ui.common.Page;
import java.util.List;
import java.util.function.Predicate;
import javafx.scene.control.Tab;
import javafx.scene.control.TabPane;

/**
 * The centre of the main window: one closable tab per opened item of the navigation tree. A closed tab's view
 * is disposed, so it lets go of the long-lived models it listened to.
 */
final class ContentArea {

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
        tab.setContent(page.content().get());
        tab.setOnClosed(e -> {
            tab.textProperty().unbind();
            Disposable.of(tab.getContent());
            tab.setContent(null);
        });
        tabs.getTabs().add(tab);
        tabs.getSelectionModel().select(tab);
    }

    /** Closes (and disposes) the tabs whose key {@code matches} says: the pages of a removed or edited connection. */
    void close(Predicate<String> matches) {
        List<Tab> gone = tabs.getTabs().stream().filter(t -> t.getId() != null && matches.test(t.getId())).toList();
        for (Tab t : gone) {
            tabs.getTabs().remove(t);
            t.textProperty().unbind();
            Disposable.of(t.getContent());
            t.setContent(null);
        }
    }

    /** Disposes every open tab's view (the window closes). */
    void disposeAll() {
        for (Tab t : tabs.getTabs()) {
            Disposable.of(t.getContent());
        }
    }

    TabPane view() {
        return tabs;
    }
}
