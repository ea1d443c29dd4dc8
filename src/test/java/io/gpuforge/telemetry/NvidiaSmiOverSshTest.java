package io.gpuforge.telemetry;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.domain.telemetry.GpuMetric;
import io.gpuforge.domain.telemetry.GpuSample;
import io.gpuforge.domain.telemetry.SourceStatus;
import io.gpuforge.host.ssh.HostKeyPolicy;
import io.gpuforge.host.ssh.SshShell;
import io.gpuforge.host.ssh.SshTarget;
import io.gpuforge.testing.SharedFixtures;
import io.gpuforge.testing.SysrootSshServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The nvidia-smi stream of a host over SSH: a fake nvidia-smi that answers from the recorded captures runs on a real
 * SSH server (sshd-core on loopback) as that host's command, reached through GPUForge's SshShell. One process for
 * every sample; a process that dies mid-line and a connection that drops are both survived, with a gap.
 */
class NvidiaSmiOverSshTest {

    @TempDir
    Path dir;

    private final TelemetryThreads threads = new TelemetryThreads();
    private final List<GpuSample> samples = new CopyOnWriteArrayList<>();
    private final List<SourceStatus> statuses = new CopyOnWriteArrayList<>();
    private Path root;
    private Path bin;
    private SysrootSshServer server;
    private Sampler.Registration registration;

    @BeforeEach
    void host() throws Exception {
        root = dir.resolve("host");
        bin = Files.createDirectories(root.resolve("usr/bin"));
        server = new SysrootSshServer(root, dir.resolve("host-key.ser"));
    }

    @AfterEach
    void stop() throws Exception {
        if (registration != null) {
            registration.close();
        }
        threads.close();
        server.close();
    }

    private SshHost sshHost(int port) {
        SshTarget target = new SshTarget("root", "127.0.0.1", port);
        return new SshHost("ssh:" + target, () -> SshShell.connect(target, new SshShell.Credentials(
                Optional.of(SysrootSshServer.PASSWORD.toCharArray()), Optional.empty(), Optional.empty()),
                dir.resolve("known_hosts"), HostKeyPolicy.acceptNew(), Duration.ofSeconds(20)), threads.pool());
    }

    private NvidiaSmiStream watch(SshHost host, String executable) {
        NvidiaSmiStream s = new NvidiaSmiStream(host, host.describe(), executable, Optional.of("pve1"),
                Clock.systemUTC());
        registration = new Sampler(threads, Clock.systemUTC()).add(s, Duration.ofMillis(200), new SampleSink() {
            @Override
            public void samples(List<GpuSample> batch) {
                samples.addAll(batch);
            }

            @Override
            public void status(SourceStatus st) {
                statuses.add(st);
            }
        });
        return s;
    }

    /** Waits for the stream's state a step expects; fails when it does not come (it used to go on silently). */
    private static void await(BooleanSupplier done) throws InterruptedException {
        io.gpuforge.testing.Eventually.until("nvidia-smi over SSH: the awaited state", Duration.ofSeconds(40), done);
    }

    private long readings() {
        return samples.stream().filter(x -> !x.isGap()).count();
    }

    private static Path capture(String name) throws Exception {
        SharedFixtures.read("nvidia-smi/" + name);
        return SharedFixtures.dir().resolve("nvidia-smi/" + name).toAbsolutePath();
    }

    /** What the same fake prints on this computer, read by the local stream: the SSH path must read the same. */
    private GpuSample locally(Path capture) throws Exception {
        Path here = Files.createDirectories(dir.resolve("local"));
        List<GpuSample> got = new CopyOnWriteArrayList<>();
        NvidiaSmiStream s = new NvidiaSmiStream(new LocalLineStreams(threads.pool()), "ssh:root@127.0.0.1:"
                + server.port(), FakeNvidiaSmi.write(here, capture).toString(), Optional.of("pve1"), Clock.systemUTC());
        try (Sampler.Registration r = new Sampler(threads, Clock.systemUTC()).add(s, Duration.ofMillis(200),
                batch -> batch.stream().filter(x -> !x.isGap()).forEach(got::add))) {
            await(() -> !got.isEmpty());
        }
        return got.get(0);
    }

    @ParameterizedTest
    @ValueSource(strings = {"02-rtx4080super-linux-595.71.05.query-gpu.load.csv",
            "02-rtx4080super-linux-595.71.05.query-gpu.idle.csv", "04-h100-80gb-hbm3-linux-590.48.01.query-gpu.load.csv",
            "04-h100-80gb-hbm3-linux-590.48.01.query-gpu.idle.csv", "07-teslap100.query-gpu.nounits.csv"})
    void everyCaptureReadsOverSshAsItDoesLocally(String name) throws Exception {
        Path capture = capture(name);
        FakeNvidiaSmi.write(bin, capture);
        SshHost host = sshHost(server.port());
        watch(host, "nvidia-smi");
        await(() -> readings() >= 1);
        int startsAtFirstReading = FakeNvidiaSmi.starts(bin);
        await(() -> readings() >= 6);
        registration.close();
        registration = null;
        GpuSample remote = samples.stream().filter(x -> !x.isGap()).findFirst().orElseThrow();
        GpuSample local = locally(capture);
        assertThat(readings()).isGreaterThanOrEqualTo(5);
        assertThat(remote.gpu().host()).isEqualTo("ssh:root@127.0.0.1:" + server.port());
        assertThat(remote.gpu()).isEqualTo(local.gpu());
        assertThat(remote.name()).isEqualTo(local.name()).isNotEmpty();
        assertThat(remote.readings()).isEqualTo(local.readings());
        assertThat(remote.get(GpuMetric.TEMPERATURE_C)).isPresent();
        assertThat(remote.node()).hasValue("pve1");
        // each field an older driver refuses restarts the stream at once without it; then one process throughout
        assertThat(FakeNvidiaSmi.starts(bin)).as("one nvidia-smi for all the samples, not one per sample")
                .isEqualTo(startsAtFirstReading);
        if (name.startsWith("07-")) {
            assertThat(startsAtFirstReading).as("the P100's driver refuses fields of newer drivers").isGreaterThan(1);
        } else {
            assertThat(startsAtFirstReading).isEqualTo(1);
        }
        assertThat(server.execChannels()).as("an exec channel per nvidia-smi started, none per sample")
                .isEqualTo(startsAtFirstReading);
        assertThat(host.connects()).isEqualTo(1);
        host.close();
    }

    @Test
    void aProcessThatDiesMidLineOnTheHostLeavesAGapAndIsStartedAgainOnTheSameSession() throws Exception {
        FakeNvidiaSmi.dyingMidLine(bin, "0, NVIDIA GeForce RTX 4090, 61, 287.45, GPU-abc");
        SshHost host = sshHost(server.port());
        watch(host, "nvidia-smi-dying");
        await(() -> FakeNvidiaSmi.starts(bin) >= 3 && samples.stream().filter(GpuSample::isGap).count() >= 2);
        List<GpuSample> readings = samples.stream().filter(x -> !x.isGap()).toList();
        assertThat(readings).hasSizeGreaterThanOrEqualTo(2).allSatisfy(x -> {
            assertThat(x.name()).as("the cut line is never read as a GPU").isEqualTo("NVIDIA GeForce RTX 4090");
            assertThat(x.get(GpuMetric.TEMPERATURE_C)).hasValue(61);
            assertThat(x.get(GpuMetric.POWER_W)).hasValue(287.45);
        });
        assertThat(samples).as("each death is a gap").anyMatch(GpuSample::isGap);
        assertThat(statuses).anyMatch(st -> st.state() == SourceStatus.State.FAILING
                && st.problem().orElse("").contains("nvidia-smi exited") && st.retryAt().isPresent());
        assertThat(host.connects()).as("the SSH session outlives the process").isEqualTo(1);
        host.close();
    }

    @Test
    void aDroppedConnectionIsAGapThenTheHostIsReachedAgainAndReadingsGoOn() throws Exception {
        FakeNvidiaSmi.write(bin, capture("02-rtx4080super-linux-595.71.05.query-gpu.load.csv"));
        try (DroppingProxy network = new DroppingProxy(server.port())) {
            SshHost host = sshHost(network.port());
            watch(host, "nvidia-smi");
            await(() -> readings() >= 3);
            long before = readings();
            network.refuse(true);
            network.dropAll();
            await(() -> statuses.stream().anyMatch(st -> st.state() == SourceStatus.State.FAILING
                    && st.problem().orElse("").contains("could not be started")));
            int failures = (int) statuses.stream().filter(st -> st.state() == SourceStatus.State.FAILING).count();
            network.refuse(false);
            await(() -> readings() >= before + 3 && host.connects() >= 2);
            assertThat(statuses).as("the loss is said").anyMatch(st -> st.state() == SourceStatus.State.FAILING
                    && st.problem().orElse("").contains("connection to root@127.0.0.1:" + network.port() + " was lost"));
            assertThat(statuses).as("while the host cannot be reached, that is said").anyMatch(st ->
                    st.problem().orElse("").contains("nvidia-smi could not be started on ssh:root@127.0.0.1:"));
            assertThat(failures).isGreaterThanOrEqualTo(2);
            assertThat(readings()).isGreaterThanOrEqualTo(before + 3);
            assertThat(host.connects()).as("connected again").isGreaterThanOrEqualTo(2);
            int gap = indexOfFirstGap();
            assertThat(gap).as("a gap between the readings before and after").isPositive();
            assertThat(samples.subList(gap, samples.size())).anyMatch(x -> !x.isGap());
            assertThat(statuses.get(statuses.size() - 1).state()).as("well again").isEqualTo(SourceStatus.State.OK);
            host.close();
        }
    }

    private int indexOfFirstGap() {
        for (int i = 0; i < samples.size(); i++) {
            if (samples.get(i).isGap()) {
                return i;
            }
        }
        return -1;
    }
}
