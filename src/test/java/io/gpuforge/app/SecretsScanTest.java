package io.gpuforge.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpuforge.app.backends.ConnectionTester;
import io.gpuforge.app.vmcreate.PasswordHash;
import io.gpuforge.app.vmcreate.SnippetCleanup;
import io.gpuforge.app.vmcreate.VmProvisioning;
import io.gpuforge.app.vmcreate.VmCreateResult;
import io.gpuforge.app.tasks.TaskLogExport;
import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.FileAppender;
import io.gpuforge.app.settings.LanguageChoice;
import io.gpuforge.app.settings.ThemeChoice;
import io.gpuforge.demo.PveSimulator;
import io.gpuforge.demo.SimCluster;
import io.gpuforge.domain.vm.CloudInit;
import io.gpuforge.domain.connections.ConnectionInfo;
import io.gpuforge.domain.connections.ConnectionOptions;
import io.gpuforge.domain.host.HostException;
import io.gpuforge.domain.vm.VmTemplate;
import io.gpuforge.testing.HostTrees;
import io.gpuforge.testing.SecretScan;
import io.gpuforge.testing.SshKeys;
import io.gpuforge.testing.SysrootSshServer;
import io.gpuforge.testing.WindowAnswers;
import io.gpuforge.testing.TestContexts;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * The secrets scan: one scenario with every kind of secret a user gives GPUForge (a Proxmox VE password with its
 * one-time code, an API token, an SSH key's passphrase, the vault's passphrase, a VM password, a template's secret
 * variable, and wrong ones typed on the way) through connect, create, export and error paths, with the window's
 * services on a fresh home, its log at DEBUG into {@code logs/gpuforge.log} as the shipped configuration writes it.
 * Then every file GPUForge holds (settings, the SQLite database and its WAL, the vault, the log, the exports), the
 * snippets left on the Demo lab's simulated node, every file left in the simulated guests, every progress line and
 * every message shown are searched for each secret: none is found. The command lines of the processes GPUForge
 * starts are searched by {@code SecretsCommandLineScanTest}.
 */
class SecretsScanTest {

    private static final String VM_PASSWORD = "vm-Pa55word-zq81";
    private static final String HOOK_PATH = "/services/T000/B000/HOOKSECRET123?token=QSECRET77";
    private static final String MUNGE_KEY = "bXVuZ2Uta2V5LW9mLXRoZS1zY2FuLTAxMjM0NTY3ODlhYmNkZWY";
    private static final String KEY_PASSPHRASE = "ssh-key-passphrase-k7";
    private static final String VAULT_PASSPHRASE = "vault-passphrase-v5";
    private static final String WRONG_PASSWORD = "wrong-pve-password-w3";
    private static final String WRONG_PASSPHRASE = "wrong-key-passphrase-w4";
    private static final String KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGq8T9mJq3fNvH5c7kK3bA ada@lab";

    @TempDir
    Path dir;

    @Test
    void noSecretIsLeftInGpuforgesFilesTheNodesSnippetsTheGuestsFilesOrWhatItShows() throws Exception {
        Path home = dir.resolve("home");
        SecretScan scan = new SecretScan();
        List<String> shown = new CopyOnWriteArrayList<>();
        List<Path> nodeTrees = new ArrayList<>();
        int vms;
        try (DebugLog log = DebugLog.into(home.resolve("logs/gpuforge.log"));
             PveSimulator sim = new PveSimulator(SimCluster.demo());
             AppContext ctx = TestContexts.create(home, dir.resolve("no-sysroot"), ThemeChoice.LIGHT,
                     LanguageChoice.ENGLISH)) {
            Optional<String> pin = Optional.of(sim.certificateFingerprint());
            String token = sim.token();
            scan.secret("the vault's passphrase", VAULT_PASSPHRASE);
            scan.secret("the Proxmox VE password", sim.password());
            scan.secret("the one-time code", PveSimulator.TOTP_CODE);
            scan.secret("the API token's secret", token.substring(token.indexOf('=') + 1));
            scan.secret("the SSH key's passphrase", KEY_PASSPHRASE);
            scan.secret("the VM password", VM_PASSWORD);
            scan.secret("the template's secret variable MUNGE_KEY", MUNGE_KEY);
            scan.secret("a wrong password typed", WRONG_PASSWORD);
            scan.secret("a wrong passphrase typed", WRONG_PASSPHRASE);
            ctx.secrets().createVault(VAULT_PASSPHRASE.toCharArray());

            // connect: a password with a second factor, a wrong password, an API token
            ctx.prompts().use((connection, user) -> Optional.of(PveSimulator.TOTP_CODE));
            ConnectionInfo ops = ctx.connections().addProxmoxUser("pve as ops", sim.url(), PveSimulator.TFA_USER,
                    sim.password().toCharArray(), pin);
            assertThat(ctx.sessions().of(ops).inventory().nodes()).isNotEmpty();
            ConnectionTester.Report wrong = ctx.tester().proxmox(new ConnectionTester.ProxmoxLogin(sim.url(),
                    "root@pam", WRONG_PASSWORD.toCharArray(), pin, Optional.empty()));
            assertThat(wrong.ok()).isFalse();
            shown.add(wrong.message());
            ConnectionInfo api = ctx.connections().addProxmox("pve token", sim.url(), token.substring(0,
                    token.indexOf('=')), token.substring(token.indexOf('=') + 1).toCharArray(), pin);
            assertThat(ctx.sessions().of(api).inventory().nodes()).isNotEmpty();

            // an SSH host with a key under a passphrase (remembered), and a wrong passphrase
            Path ssh = Files.createDirectories(dir.resolve("user-ssh"));
            Path key = SshKeys.ed25519(ssh.resolve("id_ed25519"), KEY_PASSPHRASE);
            try (SysrootSshServer server = new SysrootSshServer(HostTrees.bootVga(dir.resolve("root")),
                    dir.resolve("host-key.ser")).authorize(SshKeys.publicKey(key)).refusePasswords()) {
                ConnectionOptions withKey = new ConnectionOptions(false, Optional.of(key.toString()), false,
                        Optional.empty());
                ConnectionInfo host = ctx.connections().addSsh("gpu host", "root@127.0.0.1:" + server.port(),
                        Optional.empty(), withKey);
                assertThat(ctx.hosts().probe(host, new WindowAnswers(KEY_PASSPHRASE, true)).source())
                        .contains("127.0.0.1");
                ConnectionInfo other = ctx.connections().addSsh("gpu host again", "root@127.0.0.1:" + server.port(),
                        Optional.empty(), withKey);
                assertThatThrownBy(() -> ctx.hosts().probe(other, new WindowAnswers(WRONG_PASSPHRASE, true)))
                        .isInstanceOf(HostException.class)
                        .satisfies(e -> shown.add(String.valueOf(e.getMessage())));
            }

            // create: on the Demo lab (the user-data as a snippet on the node, removed after the first boot), on a
            // cluster without a host link (over the guest agent), and one whose setup fails
            ConnectionInfo demo = ctx.connections().addDemo("Demo lab");
            VmCreateResult snippet = ctx.provisioning().create(slurm(ctx, demo, "scan-snippet"), shown::add,
                    () -> false, (h, t, f) -> true);
            assertThat(snippet.outcome().ok()).as(String.join("\n", shown)).isTrue();
            SnippetCleanup.Outcome removed = ctx.provisioning().snippets().afterFirstBoot(snippet.snippet()
                    .orElseThrow(), shown::add, () -> false, (h, t, f) -> true);
            assertThat(removed.removed()).as(removed.message()).isTrue();
            nodeTrees.add(ctx.demoLab().host("pve-4090").orElseThrow().root());
            VmCreateResult agent = ctx.provisioning().create(slurm(ctx, api, "scan-agent"), shown::add,
                    () -> false);
            assertThat(agent.firstBoot()).hasValueSatisfying(o -> assertThat(o.ok()).as(o.message()).isTrue());
            // cloud-init echoes what it could not write: the guest's own output holds the secret
            sim.cluster().failCloudInitModule("write_files", "Failed to write /etc/munge/munge.key: invalid base64"
                    + " content '" + MUNGE_KEY + "'");
            VmCreateResult fails = ctx.provisioning().create(slurm(ctx, api, "scan-fails"), shown::add,
                    () -> false);
            assertThat(fails.firstBoot()).hasValueSatisfying(o -> assertThat(o.ok()).isFalse());
            shown.addAll(fails.notes());
            shown.add(fails.firstBoot().get().message());
            vms = 0;
            for (VmCreateResult r : List.of(agent, fails)) {
                int vmid = Integer.parseInt(r.vm().orElseThrow().id());
                sim.cluster().guestFiles(vmid).forEach((path, bytes) -> scan.bytes("VM " + vmid + ": " + path, bytes));
                vms++;
            }

            // the alert webhook: a Slack-style secret path and a token in the query; posts that fail every way
            try (io.gpuforge.testing.WebhookReceiver hook = new io.gpuforge.testing.WebhookReceiver();
                 java.net.ServerSocket resets = new java.net.ServerSocket(0)) {
                hook.answer(() -> 500);
                ctx.settings().update(st -> st.withAlertWebhook(hook.url(HOOK_PATH)));
                List<String> urls = List.of(hook.url(HOOK_PATH), "http://127.0.0.1:1" + HOOK_PATH,
                        "http://127.0.0.1:" + resets.getLocalPort() + HOOK_PATH, "https://127.0.0.1:"
                        + hook.url("/").replaceAll(".*:(\\d+)/.*", "$1") + HOOK_PATH);
                Thread closer = new Thread(() -> {
                    try {
                        while (true) {
                            resets.accept().close();
                        }
                    } catch (java.io.IOException e) {
                        // closed
                    }
                });
                closer.setDaemon(true);
                closer.start();
                for (String url : urls) {
                    assertThatThrownBy(() -> ctx.webhook().test(url)).satisfies(e -> {
                        for (Throwable t = e; t != null; t = t.getCause()) {
                            shown.add(String.valueOf(t));
                            LoggerFactory.getLogger(SecretsScanTest.class).warn("webhook test failed", t);
                        }
                    });
                }
            }

            // export the task log as a central log system takes it
            Path exports = Files.createDirectories(home.resolve("exports"));
            assertThat(TaskLogExport.write(ctx.taskLog().recent(500), TaskLogExport.Format.CSV,
                    exports.resolve("tasks.csv"))).isGreaterThanOrEqualTo(4);
            TaskLogExport.write(ctx.taskLog().recent(500), TaskLogExport.Format.JSON_LINES,
                    exports.resolve("tasks.jsonl"));
            for (Path tree : nodeTrees) {
                scan.tree("the node " + tree.getFileName(), tree);
            }
        }
        scan.tree("GPUForge's files", home);
        shown.forEach(line -> scan.text("shown", line));
        // the webhook's URL is the settings' to hold, and nothing else's: the log (exceptions' whole chains written
        // at WARN with their stack traces), the task log's exports, what was shown
        SecretScan hooks = new SecretScan().secret("the webhook URL's secret path", "HOOKSECRET123")
                .secret("the webhook URL's query token", "QSECRET77");
        hooks.tree("the log", home.resolve("logs"));
        hooks.tree("the task log's exports", home.resolve("exports"));
        shown.forEach(line -> hooks.text("shown", line));
        assertThat(hooks.found()).as("the webhook URL's secrets").isEmpty();
        assertThat(Files.readString(home.resolve("logs/gpuforge.log"))).as("its failures are in the log")
                .contains("webhook test failed").contains("http://127.0.0.1:1/…");

        assertThat(vms).isEqualTo(2);
        assertThat(Files.readString(home.resolve("logs/gpuforge.log"))).as("the log was written at DEBUG")
                .contains("DEBUG");
        assertThat(home.resolve("data/gpuforge.db")).exists();
        assertThat(scan.files()).as("files scanned").isGreaterThanOrEqualTo(8);
        assertThat(scan.found()).as("secrets found (%d files, %d bytes, %d lines scanned)", scan.files(),
                scan.bytesScanned(), shown.size()).isEmpty();
        scan.report(Path.of("target", "secrets-scan.txt"), shown.size());
    }

    @Test
    void theScanFindsASecretInAFileInABinaryAndInALine() throws Exception {
        SecretScan scan = new SecretScan();
        scan.secret("a password", VM_PASSWORD);
        scan.secret("a code", "123456");
        Path tree = Files.createDirectories(dir.resolve("tree/deeper"));
        Files.writeString(tree.resolve("settings.json"), "{\"password\": \"" + VM_PASSWORD + "\"}");
        byte[] binary = new byte[64];
        System.arraycopy(VM_PASSWORD.getBytes(StandardCharsets.UTF_8), 0, binary, 20, VM_PASSWORD.length());
        Files.write(tree.resolve("gpuforge.db-wal"), binary);
        Files.writeString(tree.resolve("times.log"), "started at 1765001234567 took 123456789 ms\n");
        scan.tree("a tree", dir.resolve("tree"));
        scan.text("shown", "the code 123456 was wrong");
        assertThat(scan.found()).containsExactlyInAnyOrder("a password in a tree: deeper/settings.json",
                "a password in a tree: deeper/gpuforge.db-wal", "a code in shown: the code 123456 was wrong");
    }

    private static VmProvisioning.Request slurm(AppContext ctx, ConnectionInfo c, String name) throws Exception {
        VmTemplate t = ctx.templates().find("slurm-gpu-worker").orElseThrow();
        CloudInit ci = new CloudInit("ada", PasswordHash.of(VM_PASSWORD), List.of(KEY), new CloudInit.Dhcp(),
                List.of(), Optional.empty(), Optional.empty());
        return new VmProvisioning.Request(new VmProvisioning.Target(c, "pve-4090"), t, name, 4, 8192, 40, "local-zfs",
                "vmbr0", "host", Optional.of(ci), Map.of("SLURM_CONTROLLER", "slurmctl.lab", "MUNGE_KEY", MUNGE_KEY),
                Optional.empty(), true);
    }


    /** GPUForge's log at DEBUG into a file, with the shipped pattern, while the scenario runs. */
    private static final class DebugLog implements AutoCloseable {
        private final Logger root;
        private final Level before;
        private final FileAppender<ILoggingEvent> file;

        private DebugLog(Logger root, FileAppender<ILoggingEvent> file) {
            this.root = root;
            this.before = root.getLevel();
            this.file = file;
        }

        static DebugLog into(Path logFile) throws Exception {
            Files.createDirectories(logFile.getParent());
            LoggerContext lc = (LoggerContext) LoggerFactory.getILoggerFactory();
            PatternLayoutEncoder encoder = new PatternLayoutEncoder();
            encoder.setContext(lc);
            encoder.setPattern("%d{ISO8601} %-5level [%thread] %logger{36} - %msg%n");
            encoder.start();
            FileAppender<ILoggingEvent> file = new FileAppender<>();
            file.setContext(lc);
            file.setName("secrets-scan");
            file.setFile(logFile.toString());
            file.setEncoder(encoder);
            file.start();
            Logger root = lc.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
            DebugLog log = new DebugLog(root, file);
            root.addAppender(file);
            root.setLevel(Level.DEBUG);
            LoggerFactory.getLogger(SecretsScanTest.class).debug("The secrets scan starts");
            return log;
        }

        @Override
        public void close() {
            root.setLevel(before);
            root.detachAppender(file);
            file.stop();
        }
    }
}
