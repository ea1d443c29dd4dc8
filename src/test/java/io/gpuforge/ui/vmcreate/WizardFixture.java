package io.gpuforge.ui.vmcreate;

import io.gpuforge.app.AppContext;
import io.gpuforge.app.settings.LanguageChoice;
import io.gpuforge.app.settings.ThemeChoice;
import io.gpuforge.testing.HostTrees;
import io.gpuforge.testing.TestContexts;
import io.gpuforge.ui.common.UiContext;
import io.gpuforge.ui.shell.MainWindow;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;
import javafx.scene.Node;
import javafx.scene.Scene;
import javafx.scene.control.Button;
import javafx.scene.control.Labeled;
import javafx.stage.Stage;
import org.testfx.api.FxRobot;
import org.testfx.util.WaitForAsyncUtils;

/**
 * The real main window over a temp home (connections added before it opens), and the wizard opened through its
 * public entry point as the toolbar's button does.
 */
final class WizardFixture implements AutoCloseable {

    final Path home;
    final AppContext app;
    UiContext ui;
    MainWindow window;
    final FxRobot robot = new FxRobot();

    WizardFixture(ThemeChoice theme, LanguageChoice language) throws Exception {
        home = Files.createTempDirectory("gpuforge-vmcreate-");
        Path sysroot = HostTrees.proxmoxSystemdBoot(home.resolve("sysroot"));
        app = TestContexts.create(home.resolve("home"), sysroot, theme, language);
    }

    /** Opens the main window on {@code stage} (on the FX thread). */
    void show(Stage stage) {
        robot.interact(() -> {
            ui = UiContext.create(app, () -> stage);
            window = new MainWindow(ui);
            stage.setWidth(1280);
            stage.setHeight(800);
            window.show(stage);
        });
    }

    CreateVmWizard open(Optional<CreateVmWizard.Preselection> pre, Stage owner) throws Exception {
        AtomicReference<CreateVmWizard> w = new AtomicReference<>();
        robot.interact(() -> w.set(CreateVmWizard.open(ui, VmCreateServices.of(app), owner, pre)));
        return w.get();
    }

    <T extends Node> T find(String id, Class<T> type) {
        WaitForAsyncUtils.waitForFxEvents();
        return robot.lookup(id).queryAs(type);
    }

    String text(String id) {
        return find(id, Labeled.class).getText();
    }

    void fire(String id) {
        robot.interact(() -> find(id, Button.class).fire());
    }

    static void waitFor(int seconds, BooleanSupplier condition) throws Exception {
        WaitForAsyncUtils.waitFor(seconds, TimeUnit.SECONDS, condition::getAsBoolean);
    }

    /** Waits for the background work of the window to finish. */
    void settle() throws Exception {
        waitFor(30, () -> ui.taskMonitor().running() == 0);
        WaitForAsyncUtils.waitForFxEvents();
    }

    static BufferedImage snapshot(Scene scene) {
        return io.gpuforge.testing.Screenshots.snapshot(scene);
    }

    /** Writes a PNG into {@code gpuforge.screenshots} ({@code target/screenshots} by default). */
    static Path writePng(Scene scene, String name) throws IOException {
        return io.gpuforge.testing.Screenshots.writePng(snapshot(scene), name);
    }

    @Override
    public void close() throws IOException {
        if (window != null) {
            robot.interact(window::dispose);
        }
        app.close();
        try (Stream<Path> s = Files.walk(home)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
