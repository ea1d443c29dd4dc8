package io.gpuforge.ui;

import static io.gpuforge.testing.FxRead.texts;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.app.settings.LanguageChoice;
import io.gpuforge.app.settings.ThemeChoice;
import io.gpuforge.diagnose.DiagnoseCases;
import io.gpuforge.testing.GuiWindow;
import java.nio.file.Files;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.MenuBar;
import javafx.scene.control.MenuItem;
import javafx.scene.control.TextArea;
import javafx.scene.control.TitledPane;
import javafx.stage.Stage;
import javafx.stage.Window;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/**
 * File → Diagnose a failed VM start…: a pasted log gives its cause, the lines that show it highlighted (and selected
 * in the text), the fix and its plan; a healthy log is "no known cause" with the lines that looked relevant.
 */
@Tag("ui")
class DiagnoseGuiTest {

    @RegisterExtension
    static final GuiWindow WINDOW = new GuiWindow();

    private Stage owner;
    private GuiFixture fx;

    @Start
    void start(Stage stage) {
        owner = stage;
    }

    /** Opens the main window, then the diagnosis from its File menu; the diagnosis window. */
    private Stage openFromTheMenu(FxRobot robot, ThemeChoice theme, LanguageChoice language) throws Exception {
        robot.interact(() -> {
            try {
                fx = WINDOW.closing(new GuiFixture(owner, theme, language));
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        MenuBar bar = robot.lookup("#menu-bar").queryAs(MenuBar.class);
        MenuItem item = bar.getMenus().get(0).getItems().stream().filter(i -> "action.diagnose".equals(i.getId()))
                .findFirst().orElseThrow();
        assertThat(item.getAccelerator().getName()).isEqualTo("Shift+Shortcut+D");
        robot.interact(item::fire);
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> robot.lookup("#diagnose-text").tryQuery().isPresent());
        AtomicReference<Stage> w = new AtomicReference<>();
        robot.interact(() -> w.set((Stage) robot.lookup("#diagnose-window").queryAs(Node.class).getScene().getWindow()));
        return w.get();
    }

    private void diagnose(FxRobot robot, String text) throws Exception {
        robot.interact(() -> robot.lookup("#diagnose-text").queryAs(TextArea.class).setText(text));
        robot.interact(() -> robot.lookup("#diagnose-run").queryAs(Button.class).fire());
        WaitForAsyncUtils.waitFor(30, TimeUnit.SECONDS, () -> !robot.lookup("#diagnose-status").queryAs(Label.class)
                .getText().isEmpty());
        WaitForAsyncUtils.waitForFxEvents();
    }

    @Test
    void aPastedLogGivesTheCauseItsHighlightedLinesAndTheFix(FxRobot robot) throws Exception {
        Stage w = openFromTheMenu(robot, ThemeChoice.LIGHT, LanguageChoice.ENGLISH);
        String log = DiagnoseCases.fixture("04-kubevirt-libvirt-group-not-viable-audio-fn-on-host-driver.txt");
        diagnose(robot, log);
        assertThat(robot.lookup("#diagnose-cause").queryAs(Label.class).getText())
                .isEqualTo("A function of the GPU's IOMMU group is still on a host driver");
        assertThat(robot.lookup("#diagnose-status").queryAs(Label.class).getText()).isEqualTo("One cause found");
        assertThat(robot.lookup("#diagnose-weight-group-not-viable").queryAs(Label.class).getText())
                .as("why it ranks first").isEqualTo("2 lines from QEMU's or libvirt's log, the last written as the start"
                        + " failed");
        Node evidence = robot.lookup("#diagnose-evidence-group-not-viable").queryAs(Node.class);
        List<Node> rows = robot.from(evidence).lookup(".diagnose-evidence-line").queryAll().stream().toList();
        assertThat(rows).hasSizeGreaterThanOrEqualTo(2);
        assertThat(texts(evidence)).contains("group 1 is not viable").contains("Kernel driver in use: snd_hda_intel");
        assertThat(texts(robot.lookup("#diagnose-why").queryAs(Node.class))).contains("0000:01:00.1")
                .contains("snd_hda_intel");
        assertThat(texts(robot.lookup("#diagnose-plan").queryAs(Node.class)))
                .contains("softdep snd_hda_intel pre: vfio-pci");

        TextArea area = robot.lookup("#diagnose-text").queryAs(TextArea.class);
        assertThat(area.getSelectedText()).as("the first evidence line is selected in the text")
                .contains("group 1 is not viable");
        Node last = rows.get(rows.size() - 1);
        robot.interact(() -> last.getOnMouseClicked().handle(null));
        assertThat(area.getSelectedText()).isEqualTo("        Kernel driver in use: snd_hda_intel");
        assertThat(Files.size(GuiFixture.writePng(GuiFixture.snapshot(w.getScene()), "diagnose-light-en.png")))
                .isPositive();
    }

    @Test
    void severalCausesAreFoldedAndAHealthyLogIsNoKnownCauseInChinese(FxRobot robot) throws Exception {
        Stage w = openFromTheMenu(robot, ThemeChoice.DARK, LanguageChoice.CHINESE_SIMPLIFIED);
        diagnose(robot, DiagnoseCases.written("ranked-reset-then-power.txt"));
        assertThat(robot.lookup("#diagnose-cause").queryAs(Label.class).getText()).isEqualTo("上一个虚拟机之后显卡未能从重置中恢复");
        assertThat(robot.lookup("#diagnose-weight-reset-bug").queryAs(Label.class).getText())
                .isEqualTo("3 行，来自内核日志，最后一行写于日志最后的错误前 1 秒");
        TitledPane also = robot.lookup("#diagnose-also-power-state").queryAs(TitledPane.class);
        assertThat(also.getText()).isEqualTo("同时发现：显卡卡在低功耗状态（D3）（power-state）");
        assertThat(also.isExpanded()).isFalse();
        assertThat(robot.lookup("#diagnose-status").queryAs(Label.class).getText()).isEqualTo("找到 2 个原因，最可能的排在最前");
        assertThat(Files.size(GuiFixture.writePng(GuiFixture.snapshot(w.getScene()), "diagnose-dark-zh.png")))
                .isPositive();

        diagnose(robot, DiagnoseCases.written("unknown-qemu-exit-only.txt"));
        assertThat(robot.lookup("#diagnose-cause").queryAs(Label.class).getText()).isEqualTo("没有找到 GPU 虚拟机启动失败的已知原因");
        assertThat(robot.lookup("#diagnose-status").queryAs(Label.class).getText()).isEqualTo("未找到已知原因");
        assertThat(texts(robot.lookup("#diagnose-relevant").queryAs(Node.class)))
                .contains("TASK ERROR: start failed: QEMU exited with code 1");
        assertThat(Window.getWindows()).hasSizeGreaterThanOrEqualTo(2);
    }
}
