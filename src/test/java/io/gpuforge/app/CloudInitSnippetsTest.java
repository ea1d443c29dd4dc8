package io.gpuforge.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.app.settings.LanguageChoice;
import io.gpuforge.app.settings.ThemeChoice;
import io.gpuforge.demo.PveSimulator;
import io.gpuforge.demo.SimCluster;
import io.gpuforge.domain.CloudConfigs;
import io.gpuforge.domain.CloudInit;
import io.gpuforge.domain.ConnectionInfo;
import io.gpuforge.domain.HostLink;
import io.gpuforge.domain.VmTemplate;
import io.gpuforge.testing.SysrootSshServer;
import io.gpuforge.testing.TestContexts;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A template's user-data on Proxmox VE: written as a snippet over the node's host link (the Demo lab's simulated
 * host; a real SSH server on loopback) and set as {@code cicustom}, or, without a link, PVE's own cloud-init fields,
 * and the notes and progress say which way was used.
 */
class CloudInitSnippetsTest {

    private static final String KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGq8T9mJq3fNvH5c7kK3bA ada@lab";
    @TempDir
    Path dir;
    private AppContext ctx;
    private PveSimulator sim;

    @BeforeEach
    void open() throws Exception {
        ctx = TestContexts.create(dir.resolve("home"), dir.resolve("no-sysroot"), ThemeChoice.LIGHT,
                LanguageChoice.ENGLISH);
        ctx.secrets().createVault("vault passphrase".toCharArray());
    }

    @AfterEach
    void close() {
        ctx.close();
        if (sim != null) {
            sim.close();
        }
    }

    private VmProvisioning.Request request(ConnectionInfo c, String name) throws Exception {
        VmTemplate t = ctx.templates().find("ubuntu-cuda").orElseThrow();
        CloudInit ci = new CloudInit("ada", Optional.empty(), List.of(KEY), new CloudInit.Dhcp(), List.of(),
                Optional.empty(), Optional.empty());
        return new VmProvisioning.Request(new VmProvisioning.Target(c, "pve-4090"), t, name, 4, 8192, 40, "local-zfs",
                "vmbr0", "host", Optional.of(ci), Map.of(), Optional.empty(), false);
    }

    private ConnectionInfo simulator() throws Exception {
        sim = new PveSimulator(SimCluster.demo());
        String token = sim.token();
        return ctx.connections().addProxmox("lab", sim.url(), token.substring(0, token.indexOf('=')),
                token.substring(token.indexOf('=') + 1).toCharArray(), Optional.of(sim.certificateFingerprint()));
    }

    private static String expectedUserData(VmProvisioning.Request r) {
        return CloudConfigs.userData(r.name(), VmProvisioning.spec(r).options().cloudInit().orElseThrow());
    }

    @Test
    void onTheDemoLabTheSnippetIsWrittenOnTheNodesHostAndSetAsCicustom() throws Exception {
        ConnectionInfo demo = ctx.connections().addDemo("Demo lab");
        VmProvisioning.Request r = request(demo, "snip-01");
        VmProvisioning.Choices c = ctx.provisioning().choices(r.target());
        assertThat(c.noSnippet()).isEmpty();
        assertThat(VmProvisioning.preview(r, c)).contains("user-data as a snippet", "cicustom=user=local:snippets/");
        List<String> progress = new ArrayList<>();
        VmProvisioning.Result res = ctx.provisioning().create(r, progress::add, () -> false);
        assertThat(res.outcome().ok()).as(String.join("\n", progress)).isTrue();
        String id = res.vm().orElseThrow().id();
        String file = "gpuforge-" + id + "-snip-01-user.yaml";
        assertThat(res.config().orElseThrow().settings()).containsEntry("cicustom", "user=local:snippets/" + file);
        Path written = ctx.demoLab().host("pve-4090").orElseThrow().root().resolve("var/lib/vz/snippets/" + file);
        assertThat(written).exists();
        assertThat(Files.readAllBytes(written)).isEqualTo(expectedUserData(r).getBytes(StandardCharsets.UTF_8));
        assertThat(Files.readString(written)).contains("nvidia-container-toolkit", KEY);
        assertThat(res.notes()).anyMatch(n -> n.contains("written over the SSH host link")
                && n.contains("/var/lib/vz/snippets/" + file));
        assertThat(progress).anyMatch(l -> l.contains("cicustom user=local:snippets/" + file));
    }

    @Test
    void withoutAHostLinkTheVmGetsProxmoxOwnFieldsAndTheNotesSaySo() throws Exception {
        ConnectionInfo c = simulator();
        VmProvisioning.Request r = request(c, "nolink-01");
        VmProvisioning.Choices choices = ctx.provisioning().choices(r.target());
        assertThat(choices.noSnippet()).hasValueSatisfying(w -> assertThat(w).contains("No host is linked to pve-4090"));
        assertThat(VmProvisioning.preview(r, choices)).contains("cannot go to the node as a snippet",
                "over the QEMU guest agent, once it starts the VM");
        List<String> progress = new ArrayList<>();
        VmProvisioning.Result res = ctx.provisioning().create(r, progress::add, () -> false);
        assertThat(res.outcome().ok()).as(String.join("\n", progress)).isTrue();
        Map<String, String> cfg = res.config().orElseThrow().settings();
        assertThat(cfg).doesNotContainKey("cicustom").containsEntry("ciuser", "ada").containsEntry("ipconfig0", "ip=dhcp");
        assertThat(cfg.get("sshkeys")).contains("ssh-ed25519");
        assertThat(res.notes()).anyMatch(n -> n.startsWith("Cloud-init: Proxmox VE's own fields")
                && n.contains("No host is linked to pve-4090") && n.contains("over the guest agent after the first boot"));
        assertThat(progress).anyMatch(l -> l.startsWith("Cloud-init: Proxmox VE's own fields"));
        assertThat(res.userDataWay()).isEqualTo(UserDataWay.GUEST_AGENT_LATER);
    }

    @Test
    void overARealSshServerTheSnippetsBytesArriveInTheStoragesSnippetsDirectory() throws Exception {
        Path root = Files.createDirectories(dir.resolve("host"));
        Files.createDirectories(root.resolve("etc/pve"));
        Files.writeString(root.resolve("etc/pve/storage.cfg"), "dir: local\n\tpath /srv/pve-local\n"
                + "\tcontent iso,vztmpl,backup,import,snippets\n\nzfspool: local-zfs\n\tpool rpool/data\n"
                + "\tcontent images,rootdir\n");
        try (SysrootSshServer server = new SysrootSshServer(root, dir.resolve("host-key.ser"))) {
            ConnectionInfo c = simulator();
            ConnectionInfo ssh = ctx.connections().addSsh("pve-4090 shell", "root@127.0.0.1:" + server.port(),
                    Optional.of(SysrootSshServer.PASSWORD.toCharArray()));
            ctx.hostLinks().link(c, "pve-4090", new HostLink.SavedSsh(ssh.id()));
            VmProvisioning.Request r = request(c, "ssh-01");
            assertThat(ctx.provisioning().choices(r.target()).noSnippet()).isEmpty();
            List<String> progress = new ArrayList<>();
            VmProvisioning.Result res = ctx.provisioning().create(r, progress::add, () -> false, (h, t, f) -> true);
            assertThat(res.outcome().ok()).as(String.join("\n", progress)).isTrue();
            String file = "gpuforge-" + res.vm().orElseThrow().id() + "-ssh-01-user.yaml";
            Path written = root.resolve("srv/pve-local/snippets/" + file);
            assertThat(written).as(String.join("\n", progress)).exists();
            assertThat(Files.readAllBytes(written)).isEqualTo(expectedUserData(r).getBytes(StandardCharsets.UTF_8));
            assertThat(res.config().orElseThrow().settings()).containsEntry("cicustom", "user=local:snippets/" + file);
            assertThat(res.notes()).anyMatch(n -> n.contains("ssh:root@127.0.0.1:" + server.port()));
        }
    }
}
