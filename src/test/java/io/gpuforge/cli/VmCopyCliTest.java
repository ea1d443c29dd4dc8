package io.gpuforge.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.gpuforge.app.AppContext;
import io.gpuforge.app.settings.LanguageChoice;
import io.gpuforge.app.settings.ThemeChoice;
import io.gpuforge.hypervisor.libvirt.LibvirtCloneTest;
import io.gpuforge.testing.TestContexts;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * gpuforge vm reboot|clone|template|config|console, in process: the VM page's other actions, on the Demo lab (a simulated
 * Proxmox VE) and on libvirt's test driver.
 */
class VmCopyCliTest {

    @TempDir
    Path home;

    private CliHarness cli;

    @BeforeEach
    void demoLab() throws Exception {
        try (AppContext ctx = TestContexts.create(home, home.resolve("sysroot"), ThemeChoice.LIGHT, LanguageChoice.ENGLISH)) {
            ctx.connections().addDemo("Demo lab");
        }
    }

    private int run(String... args) {
        if (cli == null) {
            cli = new CliHarness(home);
        }
        return cli.run(args);
    }

    private JsonNode json() throws Exception {
        return cli.json();
    }

    @Test
    void aProxmoxTemplateIsClonedLinkedAVmsConfigurationPrintedAndItRebooted() throws Exception {
        assertThat(run("vm", "clone", "9000", "ci-clone-1", "--linked", "--connection", "Demo lab", "--node",
                "pve-3090", "--json")).as(cli.err()).isZero();
        JsonNode clone = json();
        assertThat(clone.get("ok").asBoolean()).isTrue();
        assertThat(clone.get("vm").asText()).isEqualTo("pve-3090/9000");
        assertThat(clone.get("created").asText()).startsWith("pve-3090/").isNotEqualTo("pve-3090/9000");

        assertThat(run("vm", "config", "train-01", "--connection", "Demo lab")).as(cli.err()).isZero();
        assertThat(cli.out()).contains("name: train-01").contains("hostpci0: mapping=gpu-4090-a,pcie=1");
        assertThat(run("vm", "config", "101", "--connection", "Demo lab", "--json")).as(cli.err()).isZero();
        assertThat(json().get("vm").asText()).isEqualTo("pve-4090/101");
        assertThat(json().get("config").get("memory").asText()).isEqualTo("65536");
        assertThat(json().get("version").asText()).isNotEmpty();

        assertThat(run("vm", "reboot", "train-01", "--connection", "Demo lab")).as(cli.err()).isZero();
        assertThat(cli.out()).startsWith("reboot pve-4090/101: ");
    }

    @Test
    void aRunningVmIsNotTurnedIntoATemplate() throws Exception {
        assertThat(run("vm", "template", "train-01", "--connection", "Demo lab")).isEqualTo(1);
        assertThat(cli.err() + cli.out()).containsIgnoringCase("running");
    }

    @Test
    void aLibvirtVmIsClonedInFullAndALinkedCloneIsRefusedWithTheReason() throws Exception {
        Path dir = Files.createDirectories(home.resolve("kvm"));
        String uri = LibvirtCloneTest.hostUri(dir, Files.createDirectories(dir.resolve("pool")));

        assertThat(run("vm", "clone", "cuda-base", "cuda-linked", "--linked", "--libvirt", uri)).isEqualTo(1);
        assertThat(cli.err()).contains("linked clone").contains("make a full clone");

        assertThat(run("vm", "clone", "cuda-base", "cuda-worker-2", "--libvirt", uri)).as(cli.err()).isZero();
        assertThat(cli.out()).contains("clone ").contains("(new VM ").contains("/cuda-worker-2)");

        assertThat(run("vm", "config", "cuda-base", "--libvirt", uri, "--json")).as(cli.err()).isZero();
        assertThat(json().get("xml").asText()).contains("<name>cuda-base</name>")
                .contains(dir.resolve("pool").resolve("cuda-base-disk0.qcow2").toString());
    }

    @Test
    void aVmsConsoleIsTheClustersNoVncPageOrVirtViewer() throws Exception {
        assertThat(run("vm", "console", "train-01", "--connection", "Demo lab", "--print")).as(cli.err()).isZero();
        assertThat(cli.out().strip()).startsWith("https://127.0.0.1:").contains("console=kvm", "novnc=1",
                "vmid=101", "node=pve-4090", "vmname=train-01");

        Path dir = Files.createDirectories(home.resolve("kvm"));
        String uri = LibvirtCloneTest.hostUri(dir, Files.createDirectories(dir.resolve("pool")));
        assertThat(run("vm", "console", "cuda-base", "--libvirt", uri, "--print", "--json")).as(cli.err())
                .isZero();
        // the domain by its UUID after "--": a domain named like an id or an option opens that one and no other
        assertThat(json().get("command")).extracting(JsonNode::asText).hasSize(6)
                .startsWith("virt-viewer", "--connect", uri, "--uuid", "--");
        assertThat(json().get("command").get(5).asText()).matches("[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}");
        assertThat(json().get("started").asBoolean()).isFalse();
    }
}
