package io.gpuforge.app.session;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.demo.PveSimulator;
import io.gpuforge.demo.SimCluster;
import io.gpuforge.domain.BackendException;
import io.gpuforge.domain.Capability;
import io.gpuforge.domain.vm.ChangeEvent;
import io.gpuforge.domain.connections.ConnectionInfo;
import io.gpuforge.domain.connections.ConnectionState;
import io.gpuforge.domain.vm.VmAction;
import io.gpuforge.domain.vm.VmRef;
import io.gpuforge.hypervisor.Hypervisor;
import io.gpuforge.hypervisor.proxmox.ProxmoxHypervisor;
import io.gpuforge.hypervisor.proxmox.PveApiException;
import io.gpuforge.hypervisor.proxmox.PveClient;
import io.gpuforge.hypervisor.proxmox.PveContract;
import io.gpuforge.hypervisor.proxmox.PveCredentials;
import io.gpuforge.hypervisor.proxmox.PveErrors;
import io.gpuforge.testing.Eventually;
import io.gpuforge.testing.TcpProxy;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A connection that drops and comes back: the Proxmox simulator behind a TCP proxy that cuts the network. The
 * session says "reconnecting" by itself (the change feed noticed), opens the backend again with backoff once the
 * network is back, says "connected", and tells the watchers to read everything again.
 */
class SessionReconnectTest {

    private PveSimulator sim;
    private TcpProxy proxy;
    private ScheduledExecutorService scheduler;
    private ExecutorService background;
    private Sessions sessions;
    private final AtomicInteger opened = new AtomicInteger();
    private final ConnectionInfo lab = new ConnectionInfo(1, "lab", ConnectionInfo.Kind.PROXMOX, "https://lab:8006",
            PveSimulator.TOKEN_ID, Optional.empty());

    @BeforeEach
    void setUp() throws Exception {
        sim = new PveSimulator(SimCluster.demo());
        proxy = new TcpProxy("127.0.0.1", Integer.parseInt(sim.url().substring(sim.url().lastIndexOf(':') + 1)));
        scheduler = Executors.newSingleThreadScheduledExecutor();
        background = Executors.newCachedThreadPool();
        HypervisorFactory factory = new HypervisorFactory() {
            @Override
            public Hypervisor open(ConnectionInfo c) throws BackendException {
                opened.incrementAndGet();
                try {
                    PveClient client = new PveClient(proxy.httpsUrl(), PveCredentials.Token.parse(sim.token()),
                            Optional.of(sim.certificateFingerprint()), PveContract.load(), Duration.ofSeconds(2));
                    return new ProxmoxHypervisor(client, proxy.httpsUrl(), new ProxmoxHypervisor.Options(
                            Duration.ofMillis(50), Duration.ofMillis(100), Optional.empty()));
                } catch (PveApiException e) {
                    throw PveErrors.map(e);
                }
            }

            @Override
            public Hypervisor open(AdhocHypervisor a) throws BackendException {
                throw new BackendException(BackendException.Kind.UNSUPPORTED, "not in this test");
            }

            @Override
            public Set<Capability> capabilities(ConnectionInfo.Kind kind) {
                return ProxmoxHypervisor.CAPABILITIES;
            }

            @Override
            public void close() {
            }
        };
        sessions = new Sessions(factory, background, scheduler, Duration.ofMillis(50), Duration.ofMillis(400), null);
    }

    @AfterEach
    void tearDown() {
        sessions.close();
        scheduler.shutdownNow();
        background.shutdownNow();
        proxy.close();
        sim.close();
    }

    @Test
    void aDroppedConnectionSaysReconnectingThenComesBackByItselfAndAsksForAReload() throws Exception {
        List<ConnectionState.Status> states = new CopyOnWriteArrayList<>();
        sessions.addStateListener((c, s) -> states.add(s.status()));
        ConnectionSession s = sessions.of(lab);
        List<ChangeEvent> events = new CopyOnWriteArrayList<>();
        try (AutoCloseable w = s.watch(events::add)) {
            assertThat(s.inventory().nodes()).hasSize(3);
            assertThat(s.state().status()).isEqualTo(ConnectionState.Status.CONNECTED);

            proxy.cut();
            waitFor(() -> s.state().status() == ConnectionState.Status.RECONNECTING);
            assertThat(s.state().message()).isNotBlank();
            int openedWhileDown = opened.get();

            proxy.restore();
            waitFor(() -> s.state().status() == ConnectionState.Status.CONNECTED);
            assertThat(opened.get()).as("the backend was opened again").isGreaterThan(1).isGreaterThanOrEqualTo(openedWhileDown);
            waitFor(() -> events.stream().anyMatch(e -> e.kind() == ChangeEvent.Kind.INVENTORY));
            assertThat(states).containsSubsequence(ConnectionState.Status.CONNECTED, ConnectionState.Status.RECONNECTING,
                    ConnectionState.Status.CONNECTED);
            // the feed works again: a change on the cluster arrives
            events.clear();
            s.vmAction(new VmRef("pve-4090", "101"), VmAction.STOP,
                    line -> { }, () -> false);
            waitFor(() -> events.stream().anyMatch(e -> e.kind() == ChangeEvent.Kind.VM_STATE
                    || e.kind() == ChangeEvent.Kind.INVENTORY || e.kind() == ChangeEvent.Kind.TASK));
        }
    }

    @Test
    void aConnectionUnreachableFromTheStartIsWatchedOnceItAnswers() throws Exception {
        proxy.cut();
        ConnectionSession s = sessions.of(lab);
        List<ChangeEvent> events = new CopyOnWriteArrayList<>();
        try (AutoCloseable w = s.watch(events::add)) {
            waitFor(() -> s.state().status() == ConnectionState.Status.RECONNECTING);
            proxy.restore();
            waitFor(() -> s.state().status() == ConnectionState.Status.CONNECTED);
            waitFor(() -> events.stream().anyMatch(e -> e.kind() == ChangeEvent.Kind.INVENTORY));
        }
    }

    @Test
    void theWaitBetweenAttemptsDoublesUpToItsLimit() {
        SessionLink.Reconnect r = SessionLink.Reconnect.on(scheduler, Duration.ofSeconds(1), Duration.ofSeconds(60));
        assertThat(List.of(r.delay(0), r.delay(1), r.delay(2), r.delay(5), r.delay(6), r.delay(40)))
                .containsExactly(Duration.ofSeconds(1), Duration.ofSeconds(2), Duration.ofSeconds(4), Duration.ofSeconds(32),
                        Duration.ofSeconds(60), Duration.ofSeconds(60));
    }

    private static void waitFor(BooleanSupplier condition) throws InterruptedException {
        Eventually.until("the session's awaited state", Duration.ofSeconds(20), condition);
    }
}
