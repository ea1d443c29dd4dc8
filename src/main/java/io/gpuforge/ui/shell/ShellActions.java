package io.gpuforge.ui.shell;

import atlantafx.base.theme.Styles;
import io.gpuforge.ui.common.I18n;
import io.gpuforge.ui.common.Icons;
import javafx.geometry.Orientation;
import javafx.scene.control.Button;
import javafx.scene.control.Menu;
import javafx.scene.control.MenuBar;
import javafx.scene.control.MenuItem;
import javafx.scene.control.SeparatorMenuItem;
import javafx.scene.control.ToolBar;
import javafx.scene.control.Separator;
import javafx.scene.control.Tooltip;
import javafx.scene.input.KeyCombination;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import org.kordamp.ikonli.feather.Feather;

/**
 * The main window's commands, each with its label, icon and shortcut, as menu items and toolbar buttons.
 * Every command is enabled: each opens its screen, with what is selected in the tree preselected where it fits.
 */
final class ShellActions {

    /** What the enabled commands do. */
    record Handlers(Runnable addConnection, Runnable refresh, Runnable preferences, Runnable quit, Runnable openLogs,
                    Runnable about, Runnable editConnection, Runnable removeConnection, Runnable taskLog,
                    Runnable passthrough, Runnable rollback, Runnable analyseListing, Runnable diagnose,
                    Runnable createVm, Runnable gpuMonitor, Runnable welcome) {
    }

    private final I18n i18n;
    private final MenuBar menuBar = new MenuBar();
    private final ToolBar toolBar = new ToolBar();

    ShellActions(I18n i18n, Handlers h) {
        this.i18n = i18n;
        menuBar.setId("menu-bar");
        toolBar.setId("tool-bar");

        MenuItem addConnection = item("action.addConnection", "Shortcut+Shift+A", Feather.PLUS_CIRCLE, h.addConnection());
        MenuItem prefs = item("action.preferences", "Shortcut+Comma", Feather.SETTINGS, h.preferences());
        MenuItem quit = item("action.quit", "Shortcut+Q", Feather.LOG_OUT, h.quit());
        MenuItem refresh = item("action.refresh", "F5", Feather.REFRESH_CW, h.refresh());
        MenuItem passthrough = item("action.passthrough", "Shortcut+Shift+P", Feather.ZAP, h.passthrough());
        MenuItem rollback = item("action.rollback", null, Feather.ROTATE_CCW, h.rollback());
        MenuItem analyse = item("action.analyseListing", "Shortcut+Shift+L", Feather.CLIPBOARD, h.analyseListing());
        MenuItem diagnose = item("action.diagnose", "Shortcut+Shift+D", Feather.ACTIVITY, h.diagnose());
        MenuItem createVm = item("action.createVm", "Shortcut+Shift+N", Feather.BOX, h.createVm());
        MenuItem monitor = item("action.gpuMonitor", "Shortcut+Shift+M", Feather.THERMOMETER, h.gpuMonitor());
        MenuItem welcome = item("action.welcome", null, Feather.HOME, h.welcome());
        MenuItem logs = item("action.openLogs", null, Feather.FOLDER, h.openLogs());
        MenuItem about = item("action.about", null, Feather.INFO, h.about());
        MenuItem edit = item("console.action.editConnection", "Shortcut+E", Feather.EDIT, h.editConnection());
        MenuItem remove = item("console.action.removeConnection", null, Feather.TRASH_2, h.removeConnection());
        MenuItem taskLog = item("console.action.taskLog", "Shortcut+Shift+T", Feather.LIST, h.taskLog());

        menuBar.getMenus().setAll(
                menu("menu.file", "menu-file", addConnection, edit, remove, new SeparatorMenuItem(), analyse,
                        diagnose, new SeparatorMenuItem(), prefs,
                        new SeparatorMenuItem(), quit),
                menu("menu.view", "menu-view", refresh, taskLog),
                menu("menu.tools", "menu-tools", passthrough, rollback, new SeparatorMenuItem(), createVm,
                        monitor),
                menu("menu.help", "menu-help", welcome, logs, new SeparatorMenuItem(), about));

        Region spacer = new Region();
        HBox.setHgrow(spacer, Priority.ALWAYS);
        toolBar.getItems().setAll(button(addConnection), button(refresh), new Separator(Orientation.VERTICAL),
                button(passthrough), button(createVm), button(monitor), spacer, button(prefs));
    }

    private MenuItem item(String key, String accelerator, Feather icon, Runnable handler) {
        MenuItem m = new MenuItem();
        m.setId(key);
        m.textProperty().bind(i18n.text(key));
        m.setGraphic(Icons.of(icon));
        m.setUserData(icon);
        if (accelerator != null) {
            m.setAccelerator(KeyCombination.keyCombination(accelerator));
        }
        m.setOnAction(e -> handler.run());
        return m;
    }

    private Menu menu(String key, String id, MenuItem... items) {
        Menu m = new Menu();
        m.setId(id);
        m.textProperty().bind(i18n.text(key));
        m.getItems().setAll(items);
        return m;
    }

    private Button button(MenuItem item) {
        Button b = new Button();
        b.setId("tb-" + item.getId());
        b.setGraphic(Icons.of((Feather) item.getUserData()));
        b.getStyleClass().add(Styles.FLAT);
        b.disableProperty().bind(item.disableProperty());
        b.setOnAction(e -> item.fire());
        Tooltip t = new Tooltip();
        t.textProperty().bind(i18n.text(item.getId()));
        b.setTooltip(t);
        b.textProperty().bind(i18n.text(item.getId() + ".short"));
        return b;
    }

    MenuBar menuBar() {
        return menuBar;
    }

    ToolBar toolBar() {
        return toolBar;
    }
}
