package io.gpuforge.app.vmcreate;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.app.AppContext;
import io.gpuforge.app.settings.LanguageChoice;
import io.gpuforge.app.settings.ThemeChoice;
import io.gpuforge.demo.PveSimulator;
import io.gpuforge.demo.SimCluster;
import io.gpuforge.domain.vm.CloudConfigs;
import io.gpuforge.domain.vm.CloudInit;
import io.gpuforge.domain.connections.ConnectionInfo;
import io.gpuforge.domain.connections.HostLink;
import io.gpuforge.domain.tasks.TaskRecord;
import io.gpuforge.domain.vm.VmAction;
import io.gpuforge.domain.vm.VmRef;
import io.gpuforge.domain.vm.VmTemplate;
import io.gpuforge.testing.SysrootSshServer;
import io.gpuforge.testing.TestContexts;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
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

    /** A node's tree whose /etc/pve/storage.cfg is {@code storageCfg}. */
    private Path nodeWithStorages(String storageCfg) throws Exception {
        Path root = Files.createDirectories(dir.resolve("host"));
        Files.createDirectories(root.resolve("etc/pve"));
        Files.writeString(root.resolve("etc/pve/storage.cfg"), storageCfg);
        return root;
    }

    /** The simulator, its node pve-4090 linked to a saved SSH host on {@code server} (root, by password). */
    private ConnectionInfo simulatorLinkedTo(SysrootSshServer server) throws Exception {
        ConnectionInfo c = simulator();
        ConnectionInfo ssh = ctx.connections().addSsh("pve-4090 shell", "root@127.0.0.1:" + server.port(),
                Optional.of(SysrootSshServer.PASSWORD.toCharArray()));
        ctx.hostLinks().link(c, "pve-4090", new HostLink.SavedSsh(ssh.id()));
        return c;
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
        assertThat(VmProvisioning.preview(r, c)).contains("user-data as a snippet", "root-only (0600)", "cicustom=user=local:snippets/");
        List<String> progress = new ArrayList<>();
        VmCreateResult res = ctx.provisioning().create(r, progress::add, () -> false);
        assertThat(res.outcome().ok()).as(String.join("\n", progress)).isTrue();
        String id = res.vm().orElseThrow().id();
        String file = "gpuforge-" + id + "-snip-01-user.yaml";
        String meta = "gpuforge-" + id + "-snip-01-meta.yaml";
        assertThat(res.config().orElseThrow().settings()).containsEntry("cicustom",
                "user=local:snippets/" + file + ",meta=local:snippets/" + meta);
        Path written = ctx.demoLab().host("pve-4090").orElseThrow().root().resolve("var/lib/vz/snippets/" + file);
        assertThat(written).exists();
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(written)))
                .as("root-only: pveproxy's www-data and other accounts on the node cannot read it").isEqualTo("rw-------");
        Path metaFile = written.resolveSibling(meta);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(metaFile))).isEqualTo("rw-------");
        assertThat(Files.readString(metaFile)).as("its own instance-id, so removing the user-data later does not"
                + " make cloud-init run the first boot again").startsWith("instance-id: gpuforge-" + id + "-");
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
        VmCreateResult res = ctx.provisioning().create(r, progress::add, () -> false);
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
        Path root = nodeWithStorages("dir: local\n\tpath /srv/pve-local\n"
                + "\tcontent iso,vztmpl,backup,import,snippets\n\nzfspool: local-zfs\n\tpool rpool/data\n"
                + "\tcontent images,rootdir\n");
        try (SysrootSshServer server = new SysrootSshServer(root, dir.resolve("host-key.ser"))) {
            ConnectionInfo c = simulatorLinkedTo(server);
            VmProvisioning.Request r = request(c, "ssh-01");
            assertThat(ctx.provisioning().choices(r.target()).noSnippet()).isEmpty();
            List<String> progress = new ArrayList<>();
            VmCreateResult res = ctx.provisioning().create(r, progress::add, () -> false, (h, t, f) -> true);
            assertThat(res.outcome().ok()).as(String.join("\n", progress)).isTrue();
            String file = "gpuforge-" + res.vm().orElseThrow().id() + "-ssh-01-user.yaml";
            Path written = root.resolve("srv/pve-local/snippets/" + file);
            assertThat(written).as(String.join("\n", progress)).exists();
            assertThat(Files.readAllBytes(written)).isEqualTo(expectedUserData(r).getBytes(StandardCharsets.UTF_8));
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(written))).isEqualTo("rw-------");
            String meta = file.replace("-user.yaml", "-meta.yaml");
            assertThat(res.config().orElseThrow().settings()).containsEntry("cicustom",
                    "user=local:snippets/" + file + ",meta=local:snippets/" + meta);
            assertThat(res.notes()).anyMatch(n -> n.contains("ssh:root@127.0.0.1:" + server.port()))
                    .noneMatch(n -> n.contains("readable by whoever mounts it"));

            // the first boot reports done: the user-data snippet goes, the meta-data (instance-id) stays
            VmRef vm = res.vm().orElseThrow();
            ctx.sessions().of(c).vmAction(vm, VmAction.START, l -> { }, () -> false);
            int drives = sim.cluster().cloudInitDrivesWritten(Integer.parseInt(vm.id()));
            Optional<SnippetCleanup.Pending> pending = ctx.provisioning().snippets().pending(c, vm);
            assertThat(pending).as("cicustom names the user-data snippet").isPresent();
            SnippetCleanup.Outcome cleaned = ctx.provisioning().snippets().afterFirstBoot(pending.get(), progress::add,
                    () -> false, (h, t, f) -> true);
            assertThat(cleaned.removed()).as(cleaned.message()).isTrue();
            assertThat(written).as("removed once the first boot is done").doesNotExist();
            assertThat(written.resolveSibling(meta)).exists();
            assertThat(ctx.sessions().of(c).readConfig(vm).settings()).containsEntry("cicustom",
                    "meta=local:snippets/" + meta);
            assertThat(sim.cluster().cloudInitDrivesWritten(Integer.parseInt(vm.id())))
                    .as("the cloud-init drive is written again without the secrets").isGreaterThan(drives);
            assertThat(ctx.taskLog().recent(20)).anyMatch(t -> t.action().equals(SnippetCleanup.ACTION)
                    && t.status() == TaskRecord.Status.OK);

            // deleting the VM takes its meta-data snippet with it
            List<String> lines = new ArrayList<>();
            ctx.sessions().of(c).vmAction(vm, VmAction.STOP, l -> { }, () -> false);
            assertThat(ctx.provisioning().snippets().deleteVm(c, vm, lines::add, () -> false, (h, t, f) -> true).ok())
                    .as(String.join("\n", lines)).isTrue();
            assertThat(written.resolveSibling(meta)).as(String.join("\n", lines)).doesNotExist();
        }
    }

    @Test
    void deletingAVmRemovesItsSnippetsAndASharedStorageIsNamedInTheNotes() throws Exception {
        Path root = nodeWithStorages("dir: local\n\tpath /mnt/pve/snippets-nfs\n"
                + "\tcontent iso,vztmpl,backup,import,snippets\n\tshared 1\n\nzfspool: local-zfs\n\tpool rpool/data\n"
                + "\tcontent images,rootdir\n");
        try (SysrootSshServer server = new SysrootSshServer(root, dir.resolve("host-key.ser"))) {
            ConnectionInfo c = simulatorLinkedTo(server);
            VmProvisioning.Request r = request(c, "shared-01");
            List<String> progress = new ArrayList<>();
            VmCreateResult res = ctx.provisioning().create(r, progress::add, () -> false, (h, t, f) -> true);
            assertThat(res.outcome().ok()).as(String.join("\n", progress)).isTrue();
            assertThat(res.notes()).as("a storage several nodes mount").anyMatch(n -> n.contains("readable by whoever"
                    + " mounts it"));
            Path snippets = root.resolve("mnt/pve/snippets-nfs/snippets");
            String prefix = "gpuforge-" + res.vm().orElseThrow().id() + "-shared-01-";
            assertThat(snippets.resolve(prefix + "user.yaml")).exists();
            Path other = Files.writeString(snippets.resolve("someone-elses.yaml"), "#cloud-config\n");

            List<String> lines = new ArrayList<>();
            assertThat(ctx.provisioning().snippets().deleteVm(c, res.vm().get(), lines::add, () -> false,
                    (h, t, f) -> true).ok()).isTrue();
            assertThat(snippets.resolve(prefix + "user.yaml")).as(String.join("\n", lines)).doesNotExist();
            assertThat(snippets.resolve(prefix + "meta.yaml")).doesNotExist();
            assertThat(other).as("only GPUForge's own snippets are removed").exists();
            assertThat(lines).anyMatch(l -> l.startsWith("Removed the cloud-init snippets of VM"));
        }
    }
}
