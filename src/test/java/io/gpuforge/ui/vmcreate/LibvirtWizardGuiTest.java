package io.gpuforge.ui.vmcreate;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.app.settings.LanguageChoice;
import io.gpuforge.app.settings.ThemeChoice;
import io.gpuforge.domain.connections.ConnectionInfo;
import io.gpuforge.domain.GpuInfo;
import io.gpuforge.domain.vm.VmRef;
import io.gpuforge.domain.vm.VmTemplate;
import io.gpuforge.testing.GuiWindow;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import javafx.scene.control.Button;
import javafx.scene.control.CheckBox;
import javafx.scene.control.ChoiceBox;
import javafx.scene.control.ListView;
import javafx.scene.control.Spinner;
import javafx.scene.control.TextArea;
import javafx.scene.control.TextField;
import javafx.stage.Stage;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.framework.junit5.Start;

/**
 * The wizard on a libvirt host (libvirt's test driver over a host file with a storage pool and a network): the host
 * as the target, a template, the pool and network of that host, the domain XML in the summary, and the domain
 * defined with the chosen values. Clones are declared Proxmox VE only there.
 */
@Tag("ui")
class LibvirtWizardGuiTest {

    @RegisterExtension
    static final GuiWindow WINDOW = new GuiWindow();

    @TempDir
    Path dir;
    private Stage stage;
    private WizardFixture fx;

    @Start
    void start(Stage s) {
        stage = s;
    }

    /** gpu-host.xml plus a directory pool "vm-images" and a network "lab-net". */
    private String hostUri(Path pool) throws Exception {
        String host = Files.readString(Path.of("src/test/resources/libvirt/gpu-host.xml"), StandardCharsets.UTF_8);
        int end = host.lastIndexOf("</node>");
        String extra = "  <network>\n    <name>lab-net</name>\n    <bridge name='virbr7'/>\n    <forward mode='nat'/>\n"
                + "    <ip address='192.168.77.1' netmask='255.255.255.0'/>\n  </network>\n"
                + "  <pool type='dir'>\n    <name>vm-images</name>\n    <capacity unit='GiB'>200</capacity>\n"
                + "    <allocation unit='GiB'>20</allocation>\n    <available unit='GiB'>180</available>\n"
                + "    <target>\n      <path>" + pool + "</path>\n    </target>\n  </pool>\n";
        Path file = dir.resolve("kvm-host.xml");
        Files.writeString(file, host.substring(0, end) + extra + host.substring(end), StandardCharsets.UTF_8);
        return "test://" + file.toAbsolutePath();
    }

    private void set(String id, String text) {
        TextField f = fx.find(id, TextField.class);
        fx.robot.interact(() -> f.setText(text));
    }

    @SuppressWarnings("unchecked")
    private void spin(String id, int value) {
        Spinner<Integer> s = fx.find(id, Spinner.class);
        fx.robot.interact(() -> s.getValueFactory().setValue(value));
    }

    private void next(CreateVmWizard w, CreateVmWizardModel.Step expected) {
        fx.fire("#vmc-next");
        assertThat(w.current()).as(fx.text("#vmc-error")).isEqualTo(expected);
    }

    @Test
    void aDomainIsDefinedOnALibvirtHostFromATemplateInThePoolAndNetworkOfThatHost() throws Exception {
        Path pool = Files.createDirectories(dir.resolve("pool"));
        fx = WINDOW.closing(new WizardFixture(ThemeChoice.LIGHT, LanguageChoice.ENGLISH));
        ConnectionInfo kvm = fx.app.connections().addLibvirt("kvm-lab", hostUri(pool));
        // the test driver cannot upload volumes (virStorageVolUpload): no cloud image, no NoCloud seed here (the
        // seed and the image upload are covered on the real libvirtd by LibvirtDaemonVmCreateTest)
        fx.app.templates().save(new VmTemplate("small-desktop", "Small desktop", "A VM without cloud-init", false,
                VmTemplate.Os.WINDOWS, 2, 2048, 8, true, false, "host", "win11", 0, true, Optional.empty(),
                Optional.empty(), List.of(), List.of()));
        String host = fx.app.sessions().of(kvm).inventory().nodes().get(0).name();
        fx.show(stage);
        CreateVmWizard w = fx.open(Optional.of(CreateVmWizard.Preselection.node(kvm, host)), stage);
        WizardFixture.waitFor(30, () -> w.model().choices.get() != null);
        fx.settle();
        assertThat(fx.text("#vmc-target-status")).contains("1 storage for disks");
        next(w, CreateVmWizardModel.Step.TEMPLATE);
        assertThat(fx.text("#vmc-clone-sources")).startsWith("Clones are Proxmox VE only");
        assertThat(fx.find("#vmc-clone-list", ListView.class).getItems()).isEmpty();
        assertThat(fx.find("#vmc-clone-list", ListView.class).getParent().isVisible()).isFalse();
        @SuppressWarnings("unchecked")
        ListView<VmTemplate> list = fx.find("#vmc-templates", ListView.class);
        fx.robot.interact(() -> list.getSelectionModel().select(list.getItems().stream()
                .filter(t -> t.id().equals("small-desktop")).findFirst().orElseThrow()));
        next(w, CreateVmWizardModel.Step.NAME);
        set("#vmc-name", "kvm-gui-01");
        next(w, CreateVmWizardModel.Step.RESOURCES);
        spin("#vmc-cores", 3);
        spin("#vmc-memory", 3072);
        spin("#vmc-disk", 4);
        next(w, CreateVmWizardModel.Step.PLACEMENT);
        assertThat(fx.find("#vmc-storage", ChoiceBox.class).getItems()).containsExactly("vm-images");
        assertThat(fx.find("#vmc-network", ChoiceBox.class).getItems()).contains("lab-net");
        @SuppressWarnings("unchecked")
        ChoiceBox<String> network = fx.find("#vmc-network", ChoiceBox.class);
        fx.robot.interact(() -> network.setValue("lab-net"));
        next(w, CreateVmWizardModel.Step.CLOUD_INIT);
        assertThat(w.model().request().cloudInit()).as("no cloud-init for this template").isEmpty();
        next(w, CreateVmWizardModel.Step.GPU);
        @SuppressWarnings("unchecked")
        ListView<Optional<GpuInfo>> gpus = fx.find("#vmc-gpus", ListView.class);
        fx.robot.interact(() -> gpus.getSelectionModel().select(0));
        next(w, CreateVmWizardModel.Step.SUMMARY);
        fx.robot.interact(() -> fx.find("#vmc-start", CheckBox.class).setSelected(false));
        String summary = fx.find("#vmc-summary", TextArea.class).getText();
        assertThat(summary).contains("volume kvm-gui-01-disk0.qcow2 in pool vm-images, 4 GiB",
                "<domain", "<name>kvm-gui-01</name>",
                "<vcpu>3</vcpu>", "lab-net");
        WizardFixture.writePng(w.stage().getScene(), "vmcreate-8-summary-libvirt-light-en.png");
        fx.fire("#vmc-next");
        WizardFixture.waitFor(60, () -> fx.text("#vmc-status").startsWith("Created")
                || fx.text("#vmc-status").startsWith("The VM was not"));
        String log = fx.find("#vmc-log", TextArea.class).getText();
        assertThat(fx.text("#vmc-status")).as(log).isEqualTo("Created kvm-gui-01: VM kvm-gui-01 on " + host);
        assertThat(fx.find("#vmc-console", Button.class).isDisabled()).isFalse();
        WizardFixture.writePng(w.stage().getScene(), "vmcreate-9-create-libvirt-light-en.png");
        String xml = fx.app.sessions().of(kvm).readConfig(new VmRef(host, "kvm-gui-01")).document();
        assertThat(xml).contains("<name>kvm-gui-01</name>").containsPattern("<vcpu[^>]*>3</vcpu>")
                .containsPattern("<memory unit='KiB'>3145728</memory>").contains("lab-net")
                .contains(pool.resolve("kvm-gui-01-disk0.qcow2").toString());
    }
}
