package io.gpuforge.ui;

import static io.gpuforge.ui.ConsoleGuiTest.onFx;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.domain.vm.VmInfo;
import io.gpuforge.app.settings.LanguageChoice;
import io.gpuforge.app.settings.ThemeChoice;
import io.gpuforge.testing.GuiWindow;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.TableView;
import javafx.stage.Stage;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/** A libvirt connection in the window (libvirt's test driver): test, add, see its VMs and PCI devices. */
@Tag("ui")
class LibvirtGuiTest {

    @RegisterExtension
    static final GuiWindow WINDOW = new GuiWindow();

    private GuiFixture fx;

    @Start
    void start(Stage stage) throws Exception {
        fx = WINDOW.closing(new GuiFixture(stage, ThemeChoice.LIGHT, LanguageChoice.ENGLISH));
    }

    @Test
    void addALibvirtConnectionAndSeeItsDomains(FxRobot robot) throws Exception {
        String uri = "test://" + Path.of("src/test/resources/libvirt/gpu-host.xml").toAbsolutePath();
        GuiFixture.openAddConnection(robot, 1);
        robot.clickOn("#conn-name").write("lab-kvm");
        robot.interact(() -> robot.lookup("#conn-uri").queryAs(javafx.scene.control.TextField.class).setText(uri));
        robot.interact(() -> robot.lookup("#conn-test").queryAs(Button.class).fire());
        WaitForAsyncUtils.waitFor(15, TimeUnit.SECONDS,
                () -> robot.lookup("#conn-test-result").queryAs(Label.class).getText().startsWith("libvirt "));
        assertThat(onFx(() -> robot.lookup("#conn-test-result").queryAs(Label.class).getText())).contains("TEST");
        robot.interact(() -> robot.lookup("#conn-save").queryAs(Button.class).fire());

        try {
            WaitForAsyncUtils.waitFor(15, TimeUnit.SECONDS, () -> robot.lookup("#domains-table").tryQuery().isPresent()
                    && !robot.lookup("#domains-table").queryAs(TableView.class).getItems().isEmpty());
        } catch (java.util.concurrent.TimeoutException e) {
            StringBuilder why = new StringBuilder("domains never shown; tasks: ");
            fx.ui.taskMonitor().entries().forEach(t -> why.append(t.name()).append('=').append(t.state()).append("; "));
            why.append("\nevents: ").append(fx.app.events().recent(20)).append("\nthreads:\n");
            Thread.getAllStackTraces().forEach((t, st) -> {
                if (t.getName().startsWith("gpuforge") || t.getName().startsWith("libvirt") || t.getName().contains("JavaFX")) {
                    why.append(t.getName()).append(' ').append(t.getState()).append('\n');
                    for (int k = 0; k < Math.min(12, st.length); k++) {
                        why.append("    ").append(st[k]).append('\n');
                    }
                }
            });
            throw new AssertionError(why.toString(), e);
        }
        @SuppressWarnings("unchecked")
        TableView<VmInfo> table = robot.lookup("#domains-table").queryAs(TableView.class);
        assertThat(onFx(() -> List.copyOf(table.getItems()))).extracting(VmInfo::name).contains("win10-gpu", "build-box");
        assertThat(onFx(() -> robot.lookup("#domains-header").queryAs(Label.class).getText())).contains("2 VMs");
        assertThat(fx.app.connections().all()).singleElement().satisfies(c -> assertThat(c.address()).isEqualTo(uri));
        WaitForAsyncUtils.waitFor(15, TimeUnit.SECONDS, () -> fx.ui.taskMonitor().running() == 0);
        GuiFixture.writePng(GuiFixture.snapshot(table.getScene()), "libvirt-light-en.png");
    }
}
