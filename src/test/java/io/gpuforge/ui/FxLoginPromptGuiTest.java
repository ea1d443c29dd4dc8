package io.gpuforge.ui;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.app.settings.LanguageChoice;
import io.gpuforge.app.settings.ThemeChoice;
import io.gpuforge.testing.GuiWindow;
import io.gpuforge.ui.common.FxLoginPrompt;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javafx.scene.control.Button;
import javafx.scene.control.DialogPane;
import javafx.scene.control.Label;
import javafx.scene.control.PasswordField;
import javafx.stage.Stage;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/**
 * The window's SSH login questions over the real main window: a background login asks for a key's passphrase in a
 * masked field naming the key, gets what was typed, and is told whether to remember it.
 */
@Tag("ui")
class FxLoginPromptGuiTest {

    @RegisterExtension
    static final GuiWindow WINDOW = new GuiWindow();

    private GuiFixture fx;

    @Start
    void start(Stage stage) throws Exception {
        fx = WINDOW.closing(new GuiFixture(stage, ThemeChoice.LIGHT, LanguageChoice.ENGLISH));
    }

    private static DialogPane dialogSaying(FxRobot robot, String text) throws Exception {
        // found in the scene graph before its window shows when the machine is busy: wait for the window too
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> robot.lookup(".dialog-pane").queryAll().stream()
                .anyMatch(n -> says((DialogPane) n, text) && n.getScene() != null && n.getScene().getWindow() != null
                        && n.getScene().getWindow().isShowing()));
        WaitForAsyncUtils.waitForFxEvents();
        return (DialogPane) robot.lookup(".dialog-pane").queryAll().stream().filter(n -> says((DialogPane) n, text))
                .findFirst().orElseThrow();
    }

    private static boolean says(DialogPane p, String text) {
        String content = p.getContentText() == null ? "" : p.getContentText();
        if (p.getContent() != null) {
            content += p.getContent().lookupAll(".label").stream().map(l -> ((Label) l).getText()).reduce("", String::concat);
        }
        return content.contains(text);
    }

    @Test
    void aLoginAsksForThePassphraseOfItsKeyAndWhetherToRememberIt(FxRobot robot) throws Exception {
        FxLoginPrompt prompt = new FxLoginPrompt(fx.ui.dialogs(), fx.ui.i18n());
        Path key = Path.of("/home/admin/.ssh/id_ed25519");
        CompletableFuture<Optional<char[]>> typed = CompletableFuture.supplyAsync(() -> prompt.askPassphrase(key, false));

        DialogPane ask = dialogSaying(robot, key.toString());
        assertThat(ask.lookup("#secret-field")).isInstanceOf(PasswordField.class);
        robot.clickOn("#secret-field").write("right phrase");
        GuiFixture.writePng(GuiFixture.snapshot(ask.getScene()), "ssh-key-passphrase.png");
        robot.interact(() -> ((Button) ask.lookupButton(ask.getButtonTypes().get(0))).fire());
        assertThat(typed.get(20, TimeUnit.SECONDS).map(String::new)).contains("right phrase");

        CompletableFuture<Boolean> remember = CompletableFuture.supplyAsync(() -> prompt.rememberPassphrase(key));
        DialogPane keep = dialogSaying(robot, "secret store");
        GuiFixture.writePng(GuiFixture.snapshot(keep.getScene()), "ssh-remember-passphrase.png");
        robot.interact(() -> ((Button) keep.lookupButton(keep.getButtonTypes().get(0))).fire());
        assertThat(remember.get(20, TimeUnit.SECONDS)).isTrue();

        CompletableFuture<Optional<char[]>> cancelled = CompletableFuture.supplyAsync(
                () -> prompt.askPassword("root@gpu1", true));
        DialogPane again = dialogSaying(robot, "root@gpu1 was refused");
        robot.interact(() -> ((Button) again.lookupButton(again.getButtonTypes().get(1))).fire());
        assertThat(cancelled.get(20, TimeUnit.SECONDS)).as("cancel: nothing is sent").isEmpty();
    }
}
