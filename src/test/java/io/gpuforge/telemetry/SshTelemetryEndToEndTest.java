package io.gpuforge.telemetry;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gpuforge.app.AppContext;
import io.gpuforge.app.AppPaths;
import io.gpuforge.app.monitor.TelemetryService;
import io.gpuforge.app.settings.LanguageChoice;
import io.gpuforge.app.settings.ThemeChoice;
import io.gpuforge.cli.common.CliOutput;
import io.gpuforge.cli.GpuForgeCli;
import io.gpuforge.domain.connections.ConnectionInfo;
import io.gpuforge.domain.telemetry.GpuSample;
import io.gpuforge.domain.telemetry.GpuTarget;
import io.gpuforge.domain.connections.HostLink;
import io.gpuforge.domain.telemetry.SourceKind;
import io.gpuforge.domain.telemetry.SourceStatus;
import io.gpuforge.host.ssh.HostKeyPolicy;
import io.gpuforge.host.ssh.SshShell;
import io.gpuforge.host.ssh.SshTarget;
import io.gpuforge.testing.SharedFixtures;
import io.gpuforge.testing.SysrootSshServer;
import io.gpuforge.testing.TestContexts;
import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import io.gpuforge.testing.Eventually;

/**
 * {@code gpuforge gpu list|watch --ssh}, a saved SSH host and a node's linked host, end to end: the product's SSH
 * path (HostAccess, known hosts, the saved password in the secret store) to a real SSH server on loopback whose
 * {@code nvidia-smi} is a fake answering from a recorded RTX 4080 SUPER capture.
 */
class SshTelemetryEndToEndTest {

    private static final String UUID = "GPU-00000000-0000-0000-0000-000000000000";

    @TempDir
    Path dir;

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();
    private SysrootSshServer server;
    private Path bin;

    @BeforeEach
    void host() throws Exception {
        Path root = dir.resolve("host");
        bin = Files.createDirectories(root.resolve("usr/bin"));
        String capture = "nvidia-smi/02-rtx4080super-linux-595.71.05.query-gpu.load.csv";
        SharedFixtures.read(capture);
        FakeNvidiaSmi.write(bin, SharedFixtures.dir().resolve(capture).toAbsolutePath());
        server = new SysrootSshServer(root, dir.resolve("host-key.ser"));
    }

    @AfterEach
    void stop() throws Exception {
        server.close();
    }

    private int cli(String stdin, String... args) {
        out.getBuffer().setLength(0);
        err.getBuffer().setLength(0);
        return GpuForgeCli.run(args, AppPaths.underHome(dir.resolve("home")), new CliOutput(new PrintWriter(out),
                new PrintWriter(err)), new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)));
    }

    private String destination() {
        return "root@127.0.0.1:" + server.port();
    }

    @Test
    void gpuWatchOverSshPrintsJsonLinesFromOneLongLivedNvidiaSmi() throws Exception {
        int code = cli(SysrootSshServer.PASSWORD + "\n", "gpu", "watch", "--ssh", destination(), "--password-stdin",
                "--accept-new-host-key", "--known-hosts", dir.resolve("known_hosts").toString(), "--interval", "0.2",
                "--json", "--count", "4");
        assertThat(code).as(err.toString()).isZero();
        List<String> lines = out.toString().lines().toList();
        assertThat(lines).hasSize(4);
        for (String l : lines) {
            JsonNode j = new ObjectMapper().readTree(l);
            assertThat(j.get("host").asText()).isEqualTo("ssh:" + destination());
            assertThat(j.get("gpu").asText()).isEqualTo(UUID);
            assertThat(j.get("name").asText()).isEqualTo("NVIDIA GeForce RTX 4080 SUPER");
            assertThat(j.get("temperature_c").asDouble()).isEqualTo(46);
            assertThat(j.get("power_w").asDouble()).isEqualTo(84.24);
            assertThat(j.get("power_limit_w").asDouble()).isEqualTo(320);
            assertThat(j.get("source").asText()).isEqualTo("nvidia-smi");
            assertThat(j.has("memory_temperature_c")).as("[N/A] is left out, never 0").isFalse();
        }
        assertThat(err.toString()).contains("nvidia-smi stream on ssh:" + destination());
        assertThat(FakeNvidiaSmi.starts(bin)).as("one process for the four samples").isEqualTo(1);
        assertThat(Files.readString(dir.resolve("known_hosts"))).contains("[127.0.0.1]:" + server.port());

        assertThat(cli(SysrootSshServer.PASSWORD + "\n", "gpu", "list", "--ssh", destination(), "--password-stdin",
                "--known-hosts", dir.resolve("known_hosts").toString(), "--json")).as(err.toString()).isZero();
        JsonNode gpus = new ObjectMapper().readTree(out.toString()).get("gpus");
        assertThat(gpus).hasSize(1);
        assertThat(gpus.get(0).get("gpu").asText()).isEqualTo(UUID);
    }

    @Test
    void anUnknownHostKeyIsRefusedWithWhatToDo() {
        assertThat(cli(SysrootSshServer.PASSWORD + "\n", "gpu", "list", "--ssh", destination(), "--password-stdin",
                "--known-hosts", dir.resolve("known_hosts").toString())).isEqualTo(1);
        assertThat(err.toString()).contains("is not known").contains("--accept-new-host-key");
        assertThat(FakeNvidiaSmi.starts(bin)).isZero();
    }

    @Test
    void aSavedSshHostAndANodeLinkedToItAreReadInTheServiceTheWindowUses() throws Exception {
        try (AppContext ctx = TestContexts.create(dir.resolve("home"), dir.resolve("no-sysroot"), ThemeChoice.LIGHT,
                LanguageChoice.ENGLISH)) {
            trust(ctx.paths().configDir().resolve("known_hosts"));
            ctx.secrets().createVault("vault passphrase".toCharArray());
            ConnectionInfo ssh = ctx.connections().addSsh("gpu host", destination(),
                    Optional.of(SysrootSshServer.PASSWORD.toCharArray()));
            List<GpuSample> direct = ctx.telemetry().read(new GpuTarget.Connection(ssh), Duration.ofSeconds(20));
            assertThat(direct).hasSize(1);
            assertThat(direct.get(0).gpu().toString()).isEqualTo("ssh:" + destination() + "/" + UUID);
            assertThat(direct.get(0).source()).isEqualTo(SourceKind.NVIDIA_SMI);

            ConnectionInfo libvirt = ctx.connections().addLibvirt("lab", "test:///default");
            String node = ctx.sessions().of(libvirt).inventory().nodes().get(0).name();
            ctx.hostLinks().link(libvirt, node, new HostLink.SavedSsh(ssh.id()));
            List<GpuSample> samples = new CopyOnWriteArrayList<>();
            List<SourceStatus> statuses = new CopyOnWriteArrayList<>();
            try (TelemetryService.Watch w = ctx.telemetry().watch(new GpuTarget.Connection(libvirt),
                    Duration.ofMillis(200), samples::add, statuses::add)) {
                Eventually.until("three readings over SSH", Duration.ofSeconds(30), () -> samples.stream().filter(s -> !s.isGap()).count() >= 3);
                assertThat(w.sources()).anyMatch(s -> s.kind() == SourceKind.NVIDIA_SMI
                        && s.description().contains("ssh:" + destination()));
            }
            assertThat(samples).filteredOn(s -> !s.isGap()).hasSizeGreaterThanOrEqualTo(3).allSatisfy(s -> {
                assertThat(s.gpu().device()).isEqualTo(UUID);
                assertThat(s.node()).as("labelled with the node it is linked to").hasValue(node);
            });
            assertThat(ctx.telemetry().latest()).anyMatch(s -> s.gpu().device().equals(UUID));
            assertThat(statuses).noneMatch(s -> s.state() == SourceStatus.State.FAILING);
        }
    }

    /** The user accepted the host's key earlier (on its page in the window). */
    private void trust(Path knownHosts) throws Exception {
        Files.createDirectories(knownHosts.getParent());
        SshShell.connect(new SshTarget("root", "127.0.0.1", server.port()), new SshShell.Credentials(
                Optional.of(SysrootSshServer.PASSWORD.toCharArray()), Optional.empty(), Optional.empty()), knownHosts,
                HostKeyPolicy.acceptNew(), Duration.ofSeconds(20)).close();
    }
}
