package io.gpuforge.ui.monitor;

import io.gpuforge.app.AppContext;
import io.gpuforge.app.settings.LanguageChoice;
import io.gpuforge.app.settings.ThemeChoice;
import io.gpuforge.domain.connections.ConnectionInfo;
import io.gpuforge.domain.telemetry.FleetGpu;
import io.gpuforge.testing.HostTrees;
import io.gpuforge.testing.TestContexts;
import io.gpuforge.testing.FxRead;
import io.gpuforge.ui.common.UiContext;
import io.gpuforge.ui.shell.MainWindow;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import javafx.stage.Stage;
import org.testfx.api.FxRobot;
import org.testfx.util.WaitForAsyncUtils;

/** The real main window with the Demo lab saved, and the GPU monitor opened through its entry point. */
final class MonitorFixture implements AutoCloseable {

    final Path home;
    final AppContext app;
    final UiContext ui;
    final MainWindow window;
    final ConnectionInfo demo;
    final Stage stage;
    GpuMonitor monitor;

    /** What a test saves before the window opens (connections a user had when starting the app). */
    interface Saved {
        void save(AppContext app) throws Exception;
    }

    MonitorFixture(Stage stage, ThemeChoice theme, LanguageChoice language) throws Exception {
        this(stage, theme, language, app -> { });
    }

    MonitorFixture(Stage stage, ThemeChoice theme, LanguageChoice language, Saved saved) throws Exception {
        this.stage = stage;
        home = Files.createTempDirectory("gpuforge-monitor-");
        Path sysroot = HostTrees.proxmoxSystemdBoot(home.resolve("sysroot"));
        app = TestContexts.create(home.resolve("home"), sysroot, theme, language);
        demo = app.connections().addDemo("Demo lab");
        saved.save(app);
        ui = UiContext.create(app, () -> stage);
        window = new MainWindow(ui);
        stage.setWidth(1280);
        stage.setHeight(800);
        window.show(stage);
    }

    static void waitUntil(Callable<Boolean> condition) throws Exception {
        WaitForAsyncUtils.waitFor(40, TimeUnit.SECONDS, condition);
    }

    /** Reads what the monitor shows on the FX thread (its charts' data and labels change there while a test runs). */
    static <T> T onFx(Callable<T> read) {
        return FxRead.onFx(read);
    }

    /** Opens the monitor as the main window's button will (GpuMonitor.open) and waits for every Demo lab GPU. */
    GpuMonitor open(FxRobot robot) throws Exception {
        robot.interact(() -> monitor = GpuMonitor.open(ui, MonitorServices.of(app), stage));
        waitUntil(() -> demoGpus().size() == 6 && demoGpus().stream().allMatch(g -> app.fleet().latest(g.id())
                .isPresent()));
        return monitor;
    }

    List<FleetGpu> demoGpus() {
        return app.fleet().gpus().stream().filter(g -> g.connection().equals("Demo lab")).toList();
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
