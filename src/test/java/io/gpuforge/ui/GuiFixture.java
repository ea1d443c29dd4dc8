package io.gpuforge.ui;

import io.gpuforge.app.AppContext;
import io.gpuforge.app.settings.LanguageChoice;
import io.gpuforge.app.settings.ThemeChoice;
import io.gpuforge.testing.HostTrees;
import io.gpuforge.testing.Screenshots;
import io.gpuforge.testing.TestContexts;
import io.gpuforge.ui.common.UiContext;
import io.gpuforge.ui.shell.MainWindow;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import javafx.scene.Node;
import javafx.scene.Scene;
import javafx.scene.control.Button;
import javafx.scene.control.ChoiceBox;
import javafx.stage.Stage;
import org.testfx.api.FxRobot;
import org.testfx.util.WaitForAsyncUtils;

/** The real main window over a temp home and a sysroot host ("pve-gpu1": Proxmox VE, 4× RTX 3090). */
final class GuiFixture implements AutoCloseable {

    final Path home;
    final Path sysroot;
    final AppContext app;
    final UiContext ui;
    final MainWindow window;

    GuiFixture(Stage stage, ThemeChoice theme, LanguageChoice language) throws Exception {
        this(stage, theme, language, false);
    }

    /** {@code firstRun}: nothing configured and the welcome page not turned off, as on a new machine. */
    GuiFixture(Stage stage, ThemeChoice theme, LanguageChoice language, boolean firstRun) throws Exception {
        home = Files.createTempDirectory("gpuforge-gui-");
        sysroot = HostTrees.proxmoxSystemdBoot(home.resolve("sysroot"));
        app = firstRun ? TestContexts.firstRun(home.resolve("home"), sysroot, theme, language)
                : TestContexts.create(home.resolve("home"), sysroot, theme, language);
        ui = UiContext.create(app, () -> stage);
        window = new MainWindow(ui);
        stage.setWidth(1280);
        stage.setHeight(800);
        window.show(stage);
    }

    /** What the passthrough windows work through, as the shell gives it to them. */
    io.gpuforge.ui.passthrough.PassthroughServices passthrough() {
        return io.gpuforge.ui.passthrough.PassthroughServices.of(app);
    }

    /** Clicks the toolbar's "Add connection", waits for the dialog and picks the kind at {@code kindIndex}. */
    static void openAddConnection(FxRobot robot, int kindIndex) throws Exception {
        robot.interact(() -> robot.lookup((Node n) -> "tb-action.addConnection".equals(n.getId())).queryAs(Button.class).fire());
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> robot.lookup("#add-connection").tryQuery().isPresent());
        @SuppressWarnings("unchecked")
        ChoiceBox<Object> kind = robot.lookup("#conn-kind").queryAs(ChoiceBox.class);
        robot.interact(() -> kind.getSelectionModel().select(kindIndex));
    }

    /** The scene as an image, taken on the FX thread. */
    static BufferedImage snapshot(Scene scene) {
        return Screenshots.snapshot(scene);
    }

    /** Writes a PNG into {@code gpuforge.screenshots} ({@code target/screenshots} by default); returns its path. */
    static Path writePng(BufferedImage image, String name) throws IOException {
        return Screenshots.writePng(image, name);
    }

    @Override
    public void close() throws IOException {
        window.dispose();
        app.close();
        try (Stream<Path> s = Files.walk(home)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
