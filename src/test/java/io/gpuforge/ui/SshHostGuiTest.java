package io.gpuforge.ui;

import static io.gpuforge.ui.ConsoleGuiTest.onFx;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.app.settings.LanguageChoice;
import io.gpuforge.app.settings.ThemeChoice;
import io.gpuforge.testing.GuiWindow;
import io.gpuforge.testing.HostTrees;
import io.gpuforge.testing.SysrootSshServer;
import io.gpuforge.ui.connections.ConnectionForm;
import io.gpuforge.ui.host.HostPage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import javafx.scene.control.Button;
import javafx.scene.control.ChoiceBox;
import javafx.scene.control.DialogPane;
import javafx.scene.control.Label;
import javafx.scene.control.TreeTableView;
import javafx.stage.Stage;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/** Adding an SSH host in the window, trusting its key, and seeing its IOMMU groups (real SSH on loopback). */
@Tag("ui")
class SshHostGuiTest {

    @RegisterExtension
    static final GuiWindow WINDOW = new GuiWindow();

    private GuiFixture fx;
    private SysrootSshServer server;
    private Path remoteRoot;

    @Start
    void start(Stage stage) throws Exception {
        fx = WINDOW.closing(new GuiFixture(stage, ThemeChoice.LIGHT, LanguageChoice.ENGLISH));
        remoteRoot = HostTrees.intelGrub(Files.createDirectories(fx.home.resolve("remote")));
        server = WINDOW.closing(new SysrootSshServer(remoteRoot, fx.home.resolve("hostkey.ser")));
    }

    private static void waitUntil(java.util.concurrent.Callable<Boolean> c) throws Exception {
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, c);
    }

    @Test
    void addAnSshHostTrustItsKeyAndSeeItsGroups(FxRobot robot) throws Exception {
        fx.app.secrets().createVault("a long passphrase".toCharArray());
        robot.interact(() -> robot.lookup((javafx.scene.Node n) -> "tb-action.addConnection".equals(n.getId()))
                .queryAs(Button.class).fire());
        waitUntil(() -> robot.lookup("#add-connection").tryQuery().isPresent());
        Button save = robot.lookup("#conn-save").queryAs(Button.class);
        assertThat(onFx(save::isDisabled)).isTrue();
        robot.clickOn("#conn-name").write("z790");
        robot.clickOn("#conn-target").write("root@127.0.0.1:" + server.port());
        @SuppressWarnings("unchecked")
        ChoiceBox<ConnectionForm.SshAuth> auth = robot.lookup("#conn-ssh-auth").queryAs(ChoiceBox.class);
        robot.interact(() -> auth.setValue(ConnectionForm.SshAuth.PASSWORD));
        robot.clickOn("#conn-password").write(SysrootSshServer.PASSWORD);
        assertThat(onFx(save::isDisabled)).isFalse();
        robot.interact(save::fire);

        // first contact: the host key fingerprint is shown and must be accepted
        waitUntil(() -> robot.lookup(".dialog-pane").queryAll().stream()
                .anyMatch(n -> ((DialogPane) n).getContentText() != null
                        && ((DialogPane) n).getContentText().contains("SHA256:")));
        DialogPane prompt = onFx(() -> (DialogPane) robot.lookup(".dialog-pane").queryAll().stream()
                .filter(n -> ((DialogPane) n).getContentText() != null && ((DialogPane) n).getContentText().contains("SHA256:"))
                .findFirst().orElseThrow());
        assertThat(onFx(prompt::getContentText)).contains("127.0.0.1").contains("Trust and remember");
        robot.interact(() -> ((Button) prompt.lookupButton(prompt.getButtonTypes().get(0))).fire());

        waitUntil(() -> robot.lookup("#host-hostname").queryAll().stream()
                .anyMatch(n -> "z790".equals(((Label) n).getText())));
        robot.interact(() -> robot.lookup(".host-page").queryAll().stream().map(n -> (HostPage) n)
                .filter(HostPage::isVisible).reduce((a, b) -> b).orElseThrow().showIommu());
        waitUntil(() -> robot.lookup("#iommu-state").queryAll().stream()
                .anyMatch(n -> ((Label) n).getText().startsWith("6 IOMMU groups, 2 GPUs")));
        @SuppressWarnings("unchecked")
        TreeTableView<Object> table = onFx(() -> robot.lookup("#iommu-table").queryAll().stream()
                .map(n -> (TreeTableView<Object>) n).filter(t -> t.getRoot().getChildren().size() == 6).findFirst()
                .orElseThrow());
        assertThat(onFx(() -> table.getColumns().get(4).getCellData(table.getRoot().getChildren().get(0).getChildren()
                .get(0)))).isEqualTo("nvidia");
        assertThat(Files.readString(fx.app.paths().configDir().resolve("known_hosts"))).contains("[127.0.0.1]:" + server.port());
        assertThat(fx.app.connections().all()).singleElement().satisfies(c -> {
            assertThat(c.secretRef()).contains("connection:" + c.id() + ":password");
            assertThat(c.address()).isEqualTo("127.0.0.1:" + server.port());
        });
        String db = new String(Files.readAllBytes(fx.app.paths().databaseFile()), java.nio.charset.StandardCharsets.ISO_8859_1);
        assertThat(db).doesNotContain(SysrootSshServer.PASSWORD);
    }
}
