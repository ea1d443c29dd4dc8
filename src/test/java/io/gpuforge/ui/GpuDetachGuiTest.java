package io.gpuforge.ui;

import static io.gpuforge.ui.ConsoleGuiTest.onFx;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.app.settings.LanguageChoice;
import io.gpuforge.app.settings.ThemeChoice;
import io.gpuforge.domain.connections.ConnectionInfo;
import io.gpuforge.domain.pci.PciAddress;
import io.gpuforge.domain.tasks.TaskListener;
import io.gpuforge.domain.vm.VmAction;
import io.gpuforge.domain.vm.VmRef;
import io.gpuforge.testing.GuiWindow;
import io.gpuforge.ui.passthrough.GpuDetach;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import javafx.application.Platform;
import javafx.scene.control.Button;
import javafx.scene.control.DialogPane;
import javafx.stage.Stage;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/** Detach from a VM on the Demo lab: asked first, the changes shown, then the mapping nobody uses offered for removal. */
@Tag("ui")
class GpuDetachGuiTest {

    @RegisterExtension
    static final GuiWindow WINDOW = new GuiWindow();

    private GuiFixture fx;

    @Start
    void start(Stage stage) throws Exception {
        fx = WINDOW.closing(new GuiFixture(stage, ThemeChoice.LIGHT, LanguageChoice.ENGLISH));
    }

    private static DialogPane dialog(FxRobot robot, String marker) throws Exception {
        Callable<Boolean> shown = () -> robot.lookup(".dialog-pane").queryAll().stream()
                .anyMatch(n -> String.valueOf(((DialogPane) n).getContentText()).contains(marker));
        try {
            WaitForAsyncUtils.waitFor(30, TimeUnit.SECONDS, shown);
        } catch (TimeoutException e) {
            throw new AssertionError("no dialog saying " + marker + "; shown: " + robot.lookup(".dialog-pane").queryAll()
                    .stream().map(n -> ((DialogPane) n).getContentText()).toList(), e);
        }
        return onFx(() -> (DialogPane) robot.lookup(".dialog-pane").queryAll().stream()
                .filter(n -> String.valueOf(((DialogPane) n).getContentText()).contains(marker)).findFirst().orElseThrow());
    }

    private static String answer(FxRobot robot, String marker) throws Exception {
        DialogPane d = dialog(robot, marker);
        String text = onFx(d::getContentText);
        robot.interact(() -> ((Button) d.lookupButton(d.getButtonTypes().get(0))).fire());
        return text;
    }

    @Test
    void detachingTheGpuOfAVmShowsTheChangesAndOffersToRemoveTheMappingNobodyUses(FxRobot robot) throws Exception {
        ConnectionInfo demo = fx.app.connections().addDemo("Demo lab");
        VmRef train = new VmRef("pve-4090", "101");
        PciAddress gpu = PciAddress.parse("0000:01:00.0");
        assertThat(fx.app.sessions().of(demo).readConfig(train).details().hostDevices()).isNotEmpty();
        assertThat(fx.app.sessions().of(demo).vmAction(train, VmAction.STOP, TaskListener.none(), () -> false).ok()).isTrue();
        Platform.runLater(() -> GpuDetach.detach(fx.ui, fx.passthrough(), demo, train, gpu));
        assertThat(answer(robot, "Take 0000:01:00.0 away from VM 101")).contains("next start");
        assertThat(answer(robot, "is detached from VM 101")).contains("hostpci0");
        assertThat(fx.app.sessions().of(demo).readConfig(train).details().hostDevices()).isEmpty();
        assertThat(answer(robot, "No VM uses the PCI resource mapping gpu-4090-a")).contains("0000:01:00.0");
        answer(robot, "gpu-4090-a is removed");
        assertThat(fx.app.pciMappings().unused(demo)).isEmpty();
        assertThat(fx.app.sessions().of(demo).inventory().gpus()).filteredOn(g -> g.node().equals("pve-4090"))
                .as("the mappings of the VMs whose start fails, on pve-3090, are theirs")
                .noneMatch(g -> g.mapping().isPresent());
    }
}
