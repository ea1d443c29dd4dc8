package io.gpuforge.ui.monitor;

import static io.gpuforge.ui.monitor.MonitorFixture.onFx;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.app.AppContext;
import io.gpuforge.app.monitor.NoData;
import io.gpuforge.app.settings.LanguageChoice;
import io.gpuforge.app.settings.ThemeChoice;
import io.gpuforge.demo.PveSimulator;
import io.gpuforge.demo.SimCluster;
import io.gpuforge.domain.connections.ConnectionInfo;
import io.gpuforge.domain.connections.HostLink;
import io.gpuforge.domain.telemetry.AlertEvent;
import io.gpuforge.domain.telemetry.AlertRule;
import io.gpuforge.domain.telemetry.FleetGpu;
import io.gpuforge.domain.telemetry.GpuId;
import io.gpuforge.domain.telemetry.GpuSample;
import io.gpuforge.host.ssh.HostKeyPolicy;
import io.gpuforge.host.ssh.SshShell;
import io.gpuforge.host.ssh.SshTarget;
import io.gpuforge.telemetry.FakeNvidiaSmi;
import io.gpuforge.testing.HostTrees;
import io.gpuforge.testing.SharedFixtures;
import io.gpuforge.testing.SysrootSshServer;
import io.gpuforge.testing.TcpProxy;
import io.gpuforge.testing.TestContexts;
import io.gpuforge.ui.common.NavItem;
import io.gpuforge.ui.common.UiContext;
import io.gpuforge.ui.shell.MainWindow;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import javafx.animation.AnimationTimer;
import javafx.scene.control.TreeCell;
import javafx.scene.control.TreeItem;
import javafx.scene.control.TreeView;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.api.FxToolkit;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/**
 * The real window watching a Proxmox VE node whose GPU is read over its linked SSH host (a real SSH server on
 * loopback with a recorded RTX 4080 SUPER behind a faulty proxy), while the network misbehaves: the SSH host's bytes
 * held back, trickled a byte a second, cut half way, reset, then another host key behind the same address. For each
 * fault the monitor's readings stop being live (a gap, "no data since" the last reading in the tree with the source's
 * error on hover, the chart's line broken), the window keeps drawing frames (the longest gap between two frames during
 * the fault is measured and printed, not asserted), and the readings come back by themselves once the network does;
 * the changed host key is refused and stays refused. Then the Proxmox VE API stalls, resets and answers 596 while the
 * window refreshes the cluster: the window keeps drawing and the connection comes back. A "no data for 5 s" alert rule fires for each fault and
 * clears once the readings are back. Figures go to {@code target/bench/network-faults.json}.
 */
@Tag("ui")
@ExtendWith(ApplicationExtension.class)
class NetworkFaultsGuiTest {

    /** A GPU of the node that no VM has: the node's own nvidia-smi reads it. */
    private static final String ADDRESS = "0000:02:00.0";
    private static final String NODE = "pve-4090";

    private Path home;
    private AppContext app;
    private UiContext ui;
    private MainWindow window;
    private Stage stage;
    private PveSimulator sim;
    private TcpProxy pveProxy;
    private SysrootSshServer ssh;
    private SysrootSshServer other;
    private TcpProxy sshProxy;
    private ConnectionInfo pve;
    private final List<AlertEvent> alerts = new java.util.concurrent.CopyOnWriteArrayList<>();

    /** The longest time between two frames, in ms, since the last reset (FX thread). */
    private static final class FrameGaps extends AnimationTimer {
        private long last;
        private long longest;

        @Override
        public void handle(long now) {
            if (last != 0) {
                longest = Math.max(longest, now - last);
            }
            last = now;
        }

        void reset() {
            last = 0;
            longest = 0;
        }
    }

    private static Path host(Path root) throws Exception {
        Path bin = Files.createDirectories(root.resolve("usr/bin"));
        String capture = "nvidia-smi/02-rtx4080super-linux-595.71.05.query-gpu.load.csv";
        // the recorded card, at the address the simulated node lists it
        Path at = root.resolve("capture.csv");
        Files.writeString(at, new String(SharedFixtures.read(capture), java.nio.charset.StandardCharsets.UTF_8)
                .replace("00000000:01:00.0", "00000000:02:00.0"));
        FakeNvidiaSmi.write(bin, at.toAbsolutePath());
        return root;
    }

    @Start
    void start(Stage stage) throws Exception {
        this.stage = stage;
        home = Files.createTempDirectory("gpuforge-faults-");
        ssh = new SysrootSshServer(host(home.resolve("host")), home.resolve("host-key.ser"));
        sshProxy = new TcpProxy("127.0.0.1", ssh.port());
        sim = new PveSimulator(SimCluster.demo());
        pveProxy = new TcpProxy("127.0.0.1", Integer.parseInt(sim.url().substring(sim.url().lastIndexOf(':') + 1)));
        app = TestContexts.create(home.resolve("home"), HostTrees.proxmoxSystemdBoot(home.resolve("sysroot")),
                ThemeChoice.LIGHT, LanguageChoice.ENGLISH);
        // the user accepted the host's key earlier (on its page in the window)
        Path knownHosts = app.paths().configDir().resolve("known_hosts");
        Files.createDirectories(knownHosts.getParent());
        SshShell.connect(new SshTarget("root", "127.0.0.1", sshProxy.port()), new SshShell.Credentials(
                Optional.of(SysrootSshServer.PASSWORD.toCharArray()), Optional.empty(), Optional.empty()), knownHosts,
                HostKeyPolicy.acceptNew(), Duration.ofSeconds(20)).close();
        app.secrets().createVault("vault passphrase".toCharArray());
        ConnectionInfo gpuHost = app.connections().addSsh("gpu host", "root@127.0.0.1:" + sshProxy.port(),
                Optional.of(SysrootSshServer.PASSWORD.toCharArray()));
        String token = sim.token();
        pve = app.connections().addProxmox("lab", pveProxy.httpsUrl(), token.substring(0, token.indexOf('=')),
                token.substring(token.indexOf('=') + 1).toCharArray(), Optional.of(sim.certificateFingerprint()));
        app.hostLinks().link(pve, NODE, new HostLink.SavedSsh(gpuHost.id()));
        // "no data for 5 s" on any GPU
        app.alerts().save(AlertRule.of(Optional.empty(), AlertRule.Kind.SOURCE_LOST, 0, Duration.ofSeconds(5)));
        app.alerts().addListener(alerts::add);
        ui = UiContext.create(app, () -> stage);
        window = new MainWindow(ui);
        stage.setWidth(1280);
        stage.setHeight(800);
        window.show(stage);
    }

    @AfterEach
    void close() throws Exception {
        FxToolkit.cleanupStages();
        window.dispose();
        app.close();
        sshProxy.close();
        pveProxy.close();
        ssh.close();
        if (other != null) {
            other.close();
        }
        sim.close();
    }

    private static void waitUntil(long seconds, Callable<Boolean> condition) throws Exception {
        WaitForAsyncUtils.waitFor(seconds, TimeUnit.SECONDS, condition);
    }

    private Optional<FleetGpu> gpu() {
        return app.fleet().gpus().stream().filter(g -> g.connection().equals("lab") && g.host().equals(NODE)
                && g.address().equals(Optional.of(ADDRESS))).findFirst();
    }

    private boolean reading() {
        return gpu().flatMap(g -> app.fleet().newest(g.id())).map(s -> !s.isGap()).orElse(false);
    }

    private boolean gap() {
        return gpu().flatMap(g -> app.fleet().newest(g.id())).map(GpuSample::isGap).orElse(false);
    }

    @SuppressWarnings("unchecked")
    private Optional<TreeCell<NavItem>> cell(FxRobot robot) {
        String id = "conn:" + pve.id() + "/node:" + NODE + "/gpu:" + ADDRESS;
        return onFx(() -> robot.lookup(".tree-cell").queryAll().stream().map(n -> (TreeCell<NavItem>) n)
                .filter(c -> c.getItem() != null && c.getItem().id().equals(id) && c.isVisible()).findFirst());
    }

    private String row(FxRobot robot) {
        return cell(robot).map(c -> onFx(() -> c.getAccessibleText())).orElse("");
    }

    private String hover(FxRobot robot) {
        return cell(robot).map(c -> onFx(() -> c.getTooltip() == null ? "" : c.getTooltip().getText())).orElse("");
    }

    @SuppressWarnings("unchecked")
    private String connectionRow(FxRobot robot) {
        return onFx(() -> robot.lookup(".tree-cell").queryAll().stream().map(n -> (TreeCell<NavItem>) n)
                .filter(c -> c.getItem() != null && c.getItem().id().equals("conn:" + pve.id()) && c.isVisible())
                .map(c -> c.getAccessibleText().strip()).findFirst().orElse(""));
    }

    /** Opens the lab's node in the tree so that its GPU has a row. */
    @SuppressWarnings("unchecked")
    private void showNode(FxRobot robot) throws Exception {
        TreeView<NavItem> tree = robot.lookup("#navigation").queryAs(TreeView.class);
        waitUntil(40, () -> onFx(() -> tree.getRoot().getChildren().stream().anyMatch(c -> c.getValue().id()
                .equals("conn:" + pve.id()) && !c.getChildren().isEmpty())));
        robot.interact(() -> {
            for (TreeItem<NavItem> c : tree.getRoot().getChildren()) {
                if (c.getValue().id().equals("conn:" + pve.id())) {
                    c.setExpanded(true);
                    c.getChildren().stream().filter(n -> n.getValue().label().equals(NODE))
                            .forEach(n -> n.setExpanded(true));
                }
            }
        });
        waitUntil(20, () -> cell(robot).isPresent());
    }

    @Test
    void eachNetworkFaultShowsNoDataWhileTheWindowDrawsAndTheReadingsComeBack(FxRobot robot) throws Exception {
        showNode(robot);
        GpuMonitor[] monitor = new GpuMonitor[1];
        robot.interact(() -> monitor[0] = GpuMonitor.open(ui, MonitorServices.of(app), stage));
        waitUntil(60, this::reading);
        FleetGpu g = gpu().orElseThrow();
        robot.interact(() -> monitor[0].chartsOf(g));
        assertThat(row(robot)).doesNotContain("no data");
        // the row says it in the cell it had: the tree's cells are drawn again, not made anew (a whole frame's work
        // with a big tree)
        TreeCell<NavItem> before = cell(robot).orElseThrow();

        FrameGaps frames = new FrameGaps();
        robot.interact(frames::start);
        List<String> report = new ArrayList<>();
        for (TcpProxy.Fault fault : List.of(TcpProxy.Fault.STALL, TcpProxy.Fault.TRICKLE, TcpProxy.Fault.RESET,
                TcpProxy.Fault.HALF)) {
            robot.interact(frames::reset);
            long t0 = System.nanoTime();
            long startedAt = System.currentTimeMillis();
            sshProxy.fault(fault);
            waitUntil(60, this::gap);
            long lostMs = (System.nanoTime() - t0) / 1_000_000;
            waitUntil(20, () -> row(robot).contains("· no data since "));
            if (fault == TcpProxy.Fault.STALL) {
                assertThat(cell(robot).orElseThrow()).as("the GPU's row, drawn again in its cell").isSameAs(before);
            }
            NoData none = NoData.of(app.fleet(), gpu().orElseThrow()).orElseThrow();
            assertThat(none.since()).as("since the last reading").isPresent();
            assertThat(row(robot)).contains(io.gpuforge.ui.common.ClockText.of(none.since().get()));
            waitUntil(20, () -> !hover(robot).isEmpty() && hover(robot).contains(
                    NoData.of(app.fleet(), gpu().orElseThrow()).map(NoData::problem).orElse("?")));
            GpuChartsView charts = monitor[0].charts();
            waitUntil(20, () -> onFx(() -> charts.data().lines(ChartKind.TEMPERATURE).stream()
                    .anyMatch(ChartSeries::endsInGap)));
            String why = NoData.of(app.fleet(), gpu().orElseThrow()).map(NoData::problem).orElse("");
            if (fault == TcpProxy.Fault.STALL) {
                // wide enough for the row's whole label
                robot.interact(() -> robot.lookup("#main-split").queryAs(javafx.scene.control.SplitPane.class)
                        .setDividerPositions(0.45));
                WaitForAsyncUtils.waitForFxEvents();
                io.gpuforge.testing.Screenshots.writePng(io.gpuforge.testing.Screenshots.snapshot(stage.getScene()),
                        "tree-no-data-light-en.png");
                io.gpuforge.testing.Screenshots.writePng(io.gpuforge.testing.Screenshots.snapshot(
                        monitor[0].stage().getScene()), "monitor-no-data-light-en.png");
            }
            double longest = onFx(() -> frames.longest / 1e6);
            GpuId id = gpu().orElseThrow().id();
            waitUntil(30, () -> alerts.stream().anyMatch(a -> a.gpu().equals(id)
                    && a.state() == AlertEvent.State.FIRED && a.atMillis() >= startedAt));

            long t1 = System.nanoTime();
            sshProxy.fault(TcpProxy.Fault.NONE);
            waitUntil(90, this::reading);
            long backMs = (System.nanoTime() - t1) / 1_000_000;
            waitUntil(20, () -> !row(robot).contains("no data"));
            waitUntil(30, () -> alerts.stream().anyMatch(a -> a.gpu().equals(id)
                    && a.state() == AlertEvent.State.CLEARED && a.atMillis() >= startedAt));
            String line = String.format(java.util.Locale.ROOT, "{\"fault\":\"%s\",\"noDataAfterMs\":%d,"
                    + "\"longestFrameGapMs\":%.1f,\"readingAgainAfterMs\":%d,\"error\":%s}", fault, lostMs, longest,
                    backMs, new com.fasterxml.jackson.databind.ObjectMapper().writeValueAsString(why));
            System.out.println("network fault " + line);
            report.add(line);
        }

        // the host is reinstalled: another key behind the same address is refused, and stays refused
        other = new SysrootSshServer(host(home.resolve("other")), home.resolve("other-key.ser"));
        robot.interact(frames::reset);
        long t0 = System.nanoTime();
        sshProxy.retarget("127.0.0.1", other.port());
        sshProxy.cut();
        sshProxy.restore();
        waitUntil(60, this::gap);
        long lostMs = (System.nanoTime() - t0) / 1_000_000;
        waitUntil(90, () -> hover(robot).contains("has CHANGED"));
        assertThat(row(robot)).contains("· no data since ");
        double longest = onFx(() -> frames.longest / 1e6);
        String why = NoData.of(app.fleet(), gpu().orElseThrow()).map(NoData::problem).orElse("");
        assertThat(other.execChannels()).as("nothing ran on the other host").isZero();
        String line = String.format(java.util.Locale.ROOT, "{\"fault\":\"HOST_KEY\",\"noDataAfterMs\":%d,"
                + "\"longestFrameGapMs\":%.1f,\"readingAgainAfterMs\":null,\"error\":%s}", lostMs, longest,
                new com.fasterxml.jackson.databind.ObjectMapper().writeValueAsString(why));
        System.out.println("network fault " + line);
        report.add(line);

        // the Proxmox VE API misbehaves while the window refreshes the cluster: the window keeps drawing, and the
        // connection is back once the network is
        for (String fault : List.of("STALL", "RESET", "596")) {
            robot.interact(frames::reset);
            if (fault.equals("596")) {
                sim.outage(596, "Broken pipe");
            } else {
                pveProxy.fault(TcpProxy.Fault.valueOf(fault));
            }
            robot.interact(window::refresh);
            long until = System.nanoTime() + Duration.ofSeconds(5).toNanos();
            while (System.nanoTime() < until) {
                WaitForAsyncUtils.sleep(100, TimeUnit.MILLISECONDS);
            }
            String shown = connectionRow(robot);
            double pulse = onFx(() -> frames.longest / 1e6);
            sim.outage(0, null);
            pveProxy.fault(TcpProxy.Fault.NONE);
            robot.interact(window::refresh);
            long t1 = System.nanoTime();
            waitUntil(90, () -> connectionRow(robot).equals("lab"));
            String l = String.format(java.util.Locale.ROOT, "{\"fault\":\"PVE_%s\",\"longestFrameGapMs\":%.1f,"
                    + "\"treeSaid\":%s,\"connectedAgainAfterMs\":%d}", fault, pulse,
                    new com.fasterxml.jackson.databind.ObjectMapper().writeValueAsString(shown),
                    (System.nanoTime() - t1) / 1_000_000);
            System.out.println("network fault " + l);
            report.add(l);
        }
        robot.interact(frames::stop);

        Path bench = Path.of("target", "bench");
        Files.createDirectories(bench);
        Files.writeString(bench.resolve("network-faults.json"), "{\"machineLoad\":"
                + java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage()
                + ",\"faults\":[\n" + String.join(",\n", report) + "\n]}\n");
    }
}
