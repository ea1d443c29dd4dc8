package io.gpuforge.ui;

import io.gpuforge.app.AppContext;
import io.gpuforge.app.GpuForgeApp;
import io.gpuforge.settings.LanguageChoice;
import io.gpuforge.settings.ThemeChoice;
import io.gpuforge.testing.HostTrees;
import io.gpuforge.testing.TestContexts;
import io.gpuforge.ui.common.UiContext;
import io.gpuforge.ui.shell.MainWindow;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import javafx.stage.Stage;

/** The real main window over a temp home and a sysroot host ("pve-gpu1": Proxmox VE, 4× RTX 3090). */
final class GuiFixture implements AutoCloseable {

    final Path home;
    final Path sysroot;
    final AppContext app;
    final UiContext ui;
    final MainWindow window;

    GuiFixture(Stage stage, ThemeChoice theme, LanguageChoice language) throws Exception {
        home = Files.createTempDirectory("gpuforge-gui-");
        sysroot = HostTrees.proxmoxSystemdBoot(home.resolve("sysroot"));
        app = TestContexts.create(home.resolve("home"), sysroot, theme, language);
        ui = GpuForgeApp.createUi(app, () -> stage);
        window = new MainWindow(ui);
        stage.setWidth(1280);
        stage.setHeight(800);
        window.show(stage);
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
