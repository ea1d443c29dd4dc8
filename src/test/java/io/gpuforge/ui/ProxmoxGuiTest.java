package io.gpuforge.ui;

import static io.gpuforge.ui.ConsoleGuiTest.onFx;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.demo.PveSimulator;
import io.gpuforge.demo.SimCluster;
import io.gpuforge.domain.connections.ConnectionInfo;
import io.gpuforge.domain.vm.VmInfo;
import io.gpuforge.app.settings.LanguageChoice;
import io.gpuforge.app.settings.ThemeChoice;
import io.gpuforge.testing.GuiWindow;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javafx.scene.control.Button;
import javafx.scene.control.CheckBox;
import javafx.scene.control.Label;
import javafx.scene.control.PasswordField;
import javafx.scene.control.TableView;
import javafx.scene.control.TextField;
import javafx.stage.Stage;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/**
 * A Proxmox VE connection added in the window (against the simulator over HTTPS): the self-signed certificate
 * is shown by fingerprint and must be trusted, the token secret goes to the vault, the cluster appears.
 */
@Tag("ui")
class ProxmoxGuiTest {

    @RegisterExtension
    static final GuiWindow WINDOW = new GuiWindow();

    private GuiFixture fx;
    private PveSimulator sim;

    @Start
    void start(Stage stage) throws Exception {
        fx = WINDOW.closing(new GuiFixture(stage, ThemeChoice.LIGHT, LanguageChoice.ENGLISH));
        sim = WINDOW.closing(new PveSimulator(SimCluster.demo()));
    }

    /** A label's text, read on the FX thread (a test's result sets the trust box and the result in one go there). */
    private static String text(FxRobot robot, String id) {
        return onFx(() -> robot.lookup(id).queryAs(Label.class).getText());
    }

    @Test
    void addAClusterTrustingItsCertificateByFingerprint(FxRobot robot) throws Exception {
        fx.app.secrets().createVault("a long passphrase".toCharArray());
        GuiFixture.openAddConnection(robot, 2);
        String token = sim.token();
        robot.interact(() -> {
            robot.lookup("#conn-name").queryAs(TextField.class).setText("lab-pve");
            robot.lookup("#conn-pve-url").queryAs(TextField.class).setText(sim.url());
            robot.lookup("#conn-token-id").queryAs(TextField.class).setText(token.substring(0, token.indexOf('=')));
            robot.lookup("#conn-token-secret").queryAs(PasswordField.class).setText(token.substring(token.indexOf('=') + 1));
        });
        robot.interact(() -> robot.lookup("#conn-test").queryAs(Button.class).fire());
        WaitForAsyncUtils.waitFor(15, TimeUnit.SECONDS, () -> robot.lookup("#conn-trust").queryAs(CheckBox.class).isVisible());
        CheckBox trust = robot.lookup("#conn-trust").queryAs(CheckBox.class);
        assertThat(onFx(trust::getText)).contains(sim.certificateFingerprint());
        assertThat(text(robot, "#conn-test-result")).contains("not trusted by this system");
        robot.interact(() -> trust.setSelected(true));
        robot.interact(() -> robot.lookup("#conn-test").queryAs(Button.class).fire());
        WaitForAsyncUtils.waitFor(15, TimeUnit.SECONDS, () -> text(robot, "#conn-test-result").startsWith("Proxmox VE 8.4"));
        robot.interact(() -> robot.lookup("#conn-save").queryAs(Button.class).fire());

        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> robot.lookup("#domains-table").tryQuery().isPresent()
                && !robot.lookup("#domains-table").queryAs(TableView.class).getItems().isEmpty());
        @SuppressWarnings("unchecked")
        TableView<VmInfo> table = robot.lookup("#domains-table").queryAs(TableView.class);
        assertThat(onFx(() -> List.copyOf(table.getItems()))).as("train-01, the template, four whose start fails")
                .hasSize(6);
        assertThat(onFx(() -> robot.lookup("#demo-banner").tryQuery())).as("a real connection has no demo banner").isEmpty();
        ConnectionInfo saved = fx.app.connections().all().get(0);
        assertThat(saved.kind()).isEqualTo(ConnectionInfo.Kind.PROXMOX);
        assertThat(saved.tlsFingerprint()).contains(sim.certificateFingerprint());
        assertThat(saved.secretRef()).contains("connection:" + saved.id() + ":token");
        String db = new String(java.nio.file.Files.readAllBytes(fx.app.paths().databaseFile()),
                java.nio.charset.StandardCharsets.ISO_8859_1);
        assertThat(db).doesNotContain(token.substring(token.indexOf('=') + 1));
    }
}
