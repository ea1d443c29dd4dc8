package io.gpuforge.app.vmcreate;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.app.AppContext;
import io.gpuforge.app.tasks.TaskLog;
import io.gpuforge.app.settings.LanguageChoice;
import io.gpuforge.app.settings.ThemeChoice;
import io.gpuforge.demo.PveSimulator;
import io.gpuforge.demo.SimCluster;
import io.gpuforge.domain.vm.CloudConfigs;
import io.gpuforge.domain.vm.CloudInit;
import io.gpuforge.domain.connections.ConnectionInfo;
import io.gpuforge.domain.tasks.TaskRecord;
import io.gpuforge.domain.vm.VmTemplate;
import io.gpuforge.testing.TestContexts;
import io.gpuforge.testing.Tools;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A Proxmox VE VM created on a node without a host link (no snippet can be written): the template's user-data goes
 * to the guest's own cloud-init over the guest agent after the first boot, against the Demo lab's simulator, whose
 * guest agent answers only once the guest booted.
 */
class FirstBootProvisioningTest {

    private static final String KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGq8T9mJq3fNvH5c7kK3bA ada@lab";
    private static final String PASSWORD = "Tr0ub4dor&3-secret";
    private static final List<String> CUDA_MODULES = List.of("write_files", "set_hostname", "users_groups",
            "set_passwords", "runcmd", "package_update_upgrade_install", "scripts_user", "power_state_change");
    @TempDir
    Path dir;
    private AppContext ctx;
    private PveSimulator sim;
    private ConnectionInfo lab;

    @BeforeEach
    void open() throws Exception {
        ctx = TestContexts.create(dir.resolve("home"), dir.resolve("no-sysroot"), ThemeChoice.LIGHT,
                LanguageChoice.ENGLISH);
        ctx.secrets().createVault("vault passphrase".toCharArray());
        sim = new PveSimulator(SimCluster.demo());
        sim.cluster().agentBootMillis(1_500);
        String token = sim.token();
        lab = ctx.connections().addProxmox("lab", sim.url(), token.substring(0, token.indexOf('=')),
                token.substring(token.indexOf('=') + 1).toCharArray(), Optional.of(sim.certificateFingerprint()));
    }

    @AfterEach
    void close() {
        ctx.close();
        sim.close();
    }

    private VmProvisioning.Request request(String name, boolean start) throws Exception {
        VmTemplate t = ctx.templates().find("ubuntu-cuda").orElseThrow();
        CloudInit ci = new CloudInit("ada", PasswordHash.of(PASSWORD), List.of(KEY), new CloudInit.Dhcp(), List.of(),
                Optional.empty(), Optional.empty());
        return new VmProvisioning.Request(new VmProvisioning.Target(lab, "pve-4090"), t, name, 4, 8192, 40, "local-zfs",
                "vmbr0", "host", Optional.of(ci), Map.of(), Optional.empty(), start);
    }

    private static byte[] expectedUserData(VmProvisioning.Request r) {
        return CloudConfigs.userData(r.name(), VmProvisioning.spec(r).options().cloudInit().orElseThrow())
                .getBytes(StandardCharsets.UTF_8);
    }

    private int vmid(VmCreateResult res) {
        return Integer.parseInt(res.vm().orElseThrow().id());
    }

    private TaskRecord createEntry(String name) throws Exception {
        return ctx.taskLog().recent(50).stream().filter(t -> t.action().equals(TaskLog.VM_CREATE)
                && t.description().contains(name)).reduce((a, b) -> b).orElseThrow();
    }

    @Test
    void aStartedVmWithoutAHostLinkIsProvisionedOverTheGuestAgentAfterItsFirstBoot() throws Exception {
        VmProvisioning.Request r = request("agent-01", true);
        VmProvisioning.Choices choices = ctx.provisioning().choices(r.target());
        assertThat(choices.noSnippet()).isPresent();
        assertThat(VmProvisioning.preview(r, choices)).as("the summary says which way")
                .contains("over the QEMU guest agent:", "agent/file-write file=/var/lib/gpuforge/user-data.yaml",
                        "agent/exec command=cloud-init --file /var/lib/gpuforge/user-data.yaml single --name write_files");
        List<String> progress = new CopyOnWriteArrayList<>();
        VmCreateResult res = ctx.provisioning().create(r, progress::add, () -> false);

        assertThat(res.outcome().ok()).as(String.join("\n", progress)).isTrue();
        assertThat(res.userDataWay()).isEqualTo(UserDataWay.GUEST_AGENT);
        assertThat(res.firstBoot()).hasValueSatisfying(o -> assertThat(o.ok()).as(o.message()).isTrue());
        assertThat(sim.cluster().guestFileWritten(vmid(res), FirstBootProvisioning.USER_DATA_FILE))
                .hasValueSatisfying(b -> assertThat(b).isEqualTo(expectedUserData(r)));
        assertThat(sim.cluster().guestFile(vmid(res), FirstBootProvisioning.USER_DATA_FILE))
                .as("the guest's copy of the user-data (password hash, secrets) is removed after the run").isEmpty();
        assertThat(sim.cluster().guestDirMode(vmid(res), FirstBootProvisioning.USER_DATA_DIR)).hasValue("0700");
        assertThat(sim.cluster().cloudInitRuns(vmid(res))).containsExactlyElementsOf(CUDA_MODULES);
        assertThat(res.notes()).anyMatch(n -> n.contains("over the guest agent after the first boot")
                && n.contains("package_update_upgrade_install"));
        assertThat(progress).anyMatch(l -> l.contains("answered after"))
                .anyMatch(l -> l.contains("single --name package_update_upgrade_install --frequency always"))
                .anyMatch(l -> l.equals("  exit 0"))
                .noneMatch(l -> l.contains(PASSWORD));
        TaskRecord entry = createEntry("agent-01");
        assertThat(entry.status()).isEqualTo(TaskRecord.Status.OK);
        assertThat(entry.log()).as("the create's task log entry says which way was used")
                .anyMatch(l -> l.contains("over the guest agent after the first boot"))
                .anyMatch(l -> l.startsWith("cloud-init ran write_files"))
                .noneMatch(l -> l.contains(PASSWORD));
    }

    @Test
    void aModuleThatFailsIsNamedWithTheGuestsOutputAndTheVmStays() throws Exception {
        sim.cluster().failCloudInitModule("package_update_upgrade_install",
                "E: Unable to locate package nvidia-driver-550-server");
        List<String> progress = new CopyOnWriteArrayList<>();
        VmCreateResult res = ctx.provisioning().create(request("agent-02", true), progress::add, () -> false);

        assertThat(res.vm()).isPresent();
        assertThat(res.setupFailed()).isTrue();
        assertThat(res.firstBoot()).hasValueSatisfying(o -> {
            assertThat(o.failedModule()).hasValue("package_update_upgrade_install");
            assertThat(o.message()).contains("Unable to locate package nvidia-driver-550-server", "gpuforge vm provision");
        });
        assertThat(res.notes()).anyMatch(n -> n.contains("The cloud-init module package_update_upgrade_install failed")
                && n.contains("The VM is kept"));
        assertThat(sim.cluster().cloudInitRuns(vmid(res))).as("nothing runs after the failed module")
                .containsExactlyElementsOf(CUDA_MODULES.subList(0, 6));
        assertThat(ctx.sessions().of(lab).inventory().vm(res.vm().get())).as("the VM is not deleted").isPresent();
        assertThat(sim.cluster().guestFile(vmid(res), FirstBootProvisioning.USER_DATA_FILE))
                .as("removed also when a module fails").isEmpty();
        TaskRecord entry = createEntry("agent-02");
        assertThat(entry.status()).isEqualTo(TaskRecord.Status.FAILED);
        assertThat(entry.log()).anyMatch(l -> l.contains("package_update_upgrade_install failed"));
    }

    @Test
    void anAgentThatNeverAnswersEndsWithTheCommandThatRunsTheSetupLater() throws Exception {
        sim.cluster().agentBootMillis(3_600_000);
        VmProvisioning p = new VmProvisioning(ctx.sessions(), null, new FirstBootProvisioning(Duration.ofSeconds(3)));
        List<String> progress = new CopyOnWriteArrayList<>();
        VmCreateResult res = p.create(request("agent-03", true), progress::add, () -> false);

        assertThat(res.vm()).isPresent();
        String id = res.vm().get().id();
        assertThat(res.firstBoot()).hasValueSatisfying(o -> {
            assertThat(o.ok()).isFalse();
            assertThat(o.message()).contains("did not answer within 3 s", "qemu-guest-agent",
                    "gpuforge vm provision --pve " + sim.url() + " --node pve-4090 --template ubuntu-cuda --user ada"
                            + " --ssh-key FILE --password-stdin " + id);
        });
        assertThat(sim.cluster().cloudInitRuns(vmid(res))).isEmpty();
        assertThat(ctx.sessions().of(lab).inventory().vm(res.vm().get())).isPresent();
    }

    @Test
    void theWaitForTheAgentStopsWhenTheCreateIsCancelledAndTheVmStays() throws Exception {
        sim.cluster().agentBootMillis(3_600_000);
        VmProvisioning p = new VmProvisioning(ctx.sessions(), null, new FirstBootProvisioning(Duration.ofSeconds(20)));
        AtomicBoolean cancel = new AtomicBoolean();
        VmCreateResult res = p.create(request("agent-06", true), l -> {
            if (l.startsWith("Waiting for the QEMU guest agent")) {
                cancel.set(true);
            }
        }, cancel::get);
        assertThat(res.firstBoot()).hasValueSatisfying(o -> assertThat(o.message())
                .startsWith("Cancelled while waiting for the guest agent").contains("gpuforge vm provision"));
        assertThat(ctx.sessions().of(lab).inventory().vm(res.vm().orElseThrow())).isPresent();
    }

    @Test
    void aVmNotStartedIsProvisionedWhenAskedAndGpuForgeStartsIt() throws Exception {
        VmProvisioning.Request r = request("agent-04", false);
        VmCreateResult res = ctx.provisioning().create(r, l -> { }, () -> false);
        assertThat(res.userDataWay()).isEqualTo(UserDataWay.GUEST_AGENT_LATER);
        assertThat(res.notes()).anyMatch(n -> n.contains("Run the template's setup") && n.contains("gpuforge vm provision"));
        assertThat(sim.cluster().guestFile(vmid(res), FirstBootProvisioning.USER_DATA_FILE)).isEmpty();

        List<String> progress = new ArrayList<>();
        FirstBootProvisioning.Outcome o = ctx.provisioning().provision(r, res.vm().get(), progress::add, () -> false);
        assertThat(o.ok()).as(String.join("\n", progress)).isTrue();
        assertThat(sim.cluster().guestFileWritten(vmid(res), FirstBootProvisioning.USER_DATA_FILE))
                .hasValueSatisfying(b -> assertThat(b).isEqualTo(expectedUserData(r)));
        assertThat(sim.cluster().guestFile(vmid(res), FirstBootProvisioning.USER_DATA_FILE)).isEmpty();
        assertThat(sim.cluster().cloudInitRuns(vmid(res))).containsExactlyElementsOf(CUDA_MODULES);
    }

    @Test
    void aSecretVariableNeverReachesALineAndAnOpenGuestDirectoryIsTightened() throws Exception {
        String munge = "c2VjcmV0LWtleS1mb3ItbXVuZ2UtMTIzNDU2Nzg5MA==";
        VmTemplate slurm = ctx.templates().find("slurm-gpu-worker").orElseThrow();
        CloudInit ci = new CloudInit("ada", PasswordHash.of(PASSWORD), List.of(KEY), new CloudInit.Dhcp(), List.of(),
                Optional.empty(), Optional.empty());
        VmProvisioning.Request r = new VmProvisioning.Request(new VmProvisioning.Target(lab, "pve-4090"), slurm,
                "slurm-01", 4, 8192, 40, "local-zfs", "vmbr0", "host", Optional.of(ci),
                Map.of("SLURM_CONTROLLER", "slurmctl.lab", "MUNGE_KEY", munge), Optional.empty(), false);
        List<String> progress = new CopyOnWriteArrayList<>();
        VmCreateResult res = ctx.provisioning().create(r, progress::add, () -> false);
        assertThat(res.vm()).isPresent();
        // a guest image that ships /var/lib/gpuforge world-readable: mkdir -p -m 0700 alone would leave it so
        sim.cluster().guestDir(vmid(res), FirstBootProvisioning.USER_DATA_DIR, "0755");
        sim.cluster().failCloudInitModule("scripts_user", "munge: key " + munge + " rejected");
        FirstBootProvisioning.Outcome o = ctx.provisioning().provision(r, res.vm().get(), progress::add, () -> false);

        assertThat(o.ok()).isFalse();
        assertThat(sim.cluster().guestDirMode(vmid(res), FirstBootProvisioning.USER_DATA_DIR)).hasValue("0700");
        assertThat(new String(sim.cluster().guestFileWritten(vmid(res), FirstBootProvisioning.USER_DATA_FILE)
                .orElseThrow(), StandardCharsets.UTF_8)).as("the guest got the key").contains(munge);
        assertThat(sim.cluster().guestFile(vmid(res), FirstBootProvisioning.USER_DATA_FILE)).isEmpty();
        String hash = ci.passwordHash().orElseThrow();
        assertThat(progress).as("progress").isNotEmpty().noneMatch(l -> l.contains(munge) || l.contains(hash))
                .anyMatch(l -> l.contains("********"));
        assertThat(o.message()).doesNotContain(munge).contains("********");
        for (TaskRecord t : ctx.taskLog().recent(50)) {
            assertThat(t.log()).as("task log").noneMatch(l -> l.contains(munge) || l.contains(hash));
            assertThat(t.description() + t.statusText()).doesNotContain(munge);
        }
    }

    /** The Python that runs {@code command} (its #! line): the one that has cloud-init's modules. */
    private static String interpreterOf(String command) throws Exception {
        Process which = new ProcessBuilder("sh", "-c", "command -v " + command).start();
        Path script = Path.of(new String(which.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip());
        which.waitFor();
        String first = Files.readAllLines(script, StandardCharsets.UTF_8).get(0);
        return first.startsWith("#!") ? first.substring(2).strip().split("\\s+")[0] : "python3";
    }

    @Test
    void theFileTheGuestGetsIsValidForTheRealCloudInitAndEachModuleItRunsExists() throws Exception {
        Tools.require("cloud-init", "cloud-init");
        VmProvisioning.Request r = request("agent-05", true);
        VmCreateResult res = ctx.provisioning().create(r, l -> { }, () -> false);
        byte[] written = sim.cluster().guestFileWritten(vmid(res), FirstBootProvisioning.USER_DATA_FILE).orElseThrow();
        Path file = Files.write(dir.resolve("user-data.yaml"), written);
        Process schema = new ProcessBuilder("cloud-init", "schema", "-c", file.toString()).redirectErrorStream(true)
                .start();
        String out = new String(schema.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(schema.waitFor()).as(out).isZero();
        Process where = new ProcessBuilder(interpreterOf("cloud-init"), "-c", "import cloudinit.config, os;"
                + " print(os.path.dirname(cloudinit.config.__file__))").start();
        Path modules = Path.of(new String(where.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip());
        assertThat(where.waitFor()).isZero();
        for (String m : sim.cluster().cloudInitRuns(vmid(res))) {
            assertThat(modules.resolve("cc_" + m + ".py")).as("cloud-init has the module " + m).exists();
        }
        // the real cloud-init parses the command GPUForge sends (--help ends it before anything runs)
        List<String> argv = new ArrayList<>(FirstBootProvisioning.command("scripts_user"));
        argv.set(argv.indexOf(FirstBootProvisioning.USER_DATA_FILE), file.toString());
        argv.add("--help");
        Process parse = new ProcessBuilder(argv).redirectErrorStream(true).start();
        String help = new String(parse.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(parse.waitFor()).as(help).isZero();
        assertThat(help).contains("--frequency");
    }
}
