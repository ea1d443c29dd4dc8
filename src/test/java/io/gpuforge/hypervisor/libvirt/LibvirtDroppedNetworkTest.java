package io.gpuforge.hypervisor.libvirt;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.domain.BackendException;
import io.gpuforge.domain.vm.ChangeEvent;
import io.gpuforge.domain.ClusterInventory;
import io.gpuforge.domain.connections.ConnectionState;
import io.gpuforge.hypervisor.Hypervisor;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A libvirt host that drops off the network while GPUForge is connected (issue 9 item 13): the real libvirtd
 * behind a Unix-socket proxy that, at a point the test chooses, stops forwarding anything while keeping every
 * socket open. A call must then fail as a network error once libvirt's keepalive gives up, not hang; closing a
 * connection or a watch must return at once.
 */
class LibvirtDroppedNetworkTest {

    @TempDir
    Path dir;
    private UnixSocketProxy proxy;

    @BeforeEach
    void proxy() throws Exception {
        proxy = new UnixSocketProxy(dir.resolve("libvirt.sock"), LibvirtDaemon.socketOrSkip());
    }

    @AfterEach
    void stop() throws Exception {
        if (proxy != null) {
            proxy.close();
        }
    }

    private String uri() {
        return "qemu+unix:///system?socket=" + proxy.socket();
    }

    @Test
    void aCallToAHostThatFellOffTheNetworkFailsInsteadOfHanging() throws Exception {
        LibvirtConnection c = LibvirtConnection.open(uri());
        try {
            assertThat(c.hostname()).isNotBlank();
            proxy.blackHole();
            CompletableFuture<String> call = CompletableFuture.supplyAsync(() -> {
                try {
                    return c.hostname();
                } catch (LibvirtBackendException e) {
                    throw new IllegalStateException(e);
                }
            });
            Throwable failure = outcome(call, 90);
            assertThat(failure).as("the call to the silent host").isInstanceOfSatisfying(LibvirtBackendException.class,
                    e -> assertThat(e.kind()).isEqualTo(BackendException.Kind.NETWORK));
            assertThat(failure.getMessage()).contains("the host does not answer");
        } finally {
            c.close();
        }
    }

    @Test
    void closingAWatchOrAConnectionToASilentHostReturnsAtOnce() throws Exception {
        LibvirtConnection c = LibvirtConnection.open(uri());
        LibvirtWatch watch = LibvirtWatch.open(uri(), new LibvirtEventLoop(), new CopyOnWriteArrayList<String>()::add);
        assertThat(c.hostname()).isNotBlank();
        proxy.blackHole();
        assertThat(returnsWithin(watch::close, 10)).as("LibvirtWatch.close() returned").isTrue();
        assertThat(returnsWithin(c::close, 10)).as("LibvirtConnection.close() returned").isTrue();
    }

    @Test
    void theBackendOfASilentHostFailsCallsAsNetworkErrorsAndReportsTheConnectionLost() throws Exception {
        LibvirtHypervisor h = LibvirtHypervisor.open(uri(), new KeepAlive(1, 2));
        List<ChangeEvent> events = new CopyOnWriteArrayList<>();
        Hypervisor.Subscription feed = h.watch(events::add);
        try {
            assertThat(h.inventory().nodes()).isNotEmpty();
            proxy.blackHole();
            CompletableFuture<ClusterInventory> call = CompletableFuture.supplyAsync(() -> {
                try {
                    return h.inventory();
                } catch (BackendException e) {
                    throw new IllegalStateException(e);
                }
            });
            assertThat(outcome(call, 60)).isInstanceOfSatisfying(BackendException.class,
                    e -> assertThat(e.kind()).isEqualTo(BackendException.Kind.NETWORK));
            assertThat(h.state().status()).isEqualTo(ConnectionState.Status.FAILED);
            assertThat(h.state().message()).contains("lost");
            assertThat(events).anySatisfy(e -> assertThat(e.kind()).isEqualTo(ChangeEvent.Kind.CONNECTION));
        } finally {
            assertThat(returnsWithin(feed::close, 10)).as("closing the subscription returned").isTrue();
            assertThat(returnsWithin(h::close, 10)).as("closing the backend returned").isTrue();
        }
    }

    @Test
    void closingTheBackendOfASilentHostNeitherWaitsForItNorForACallStuckOnIt() throws Exception {
        // no keepalive: without a close that leaves the RPCs to a background thread, this would wait forever
        LibvirtHypervisor h = LibvirtHypervisor.open(uri(), KeepAlive.off());
        Hypervisor.Subscription feed = h.watch(e -> { });
        assertThat(h.inventory().nodes()).isNotEmpty();
        proxy.blackHole();
        CompletableFuture<ClusterInventory> stuck = new CompletableFuture<>();
        Thread caller = new Thread(() -> {
            try {
                stuck.complete(h.inventory());
            } catch (BackendException | RuntimeException e) {
                stuck.completeExceptionally(e);
            }
        }, "stuck-caller");
        caller.setDaemon(true);
        caller.start();
        assertThat(entersLibvirtWithin(caller, 10)).as("the call reached libvirt and waits for the host").isTrue();
        assertThat(returnsWithin(feed::close, 10)).as("closing the subscription returned").isTrue();
        assertThat(returnsWithin(h::close, 10)).as("closing the backend returned").isTrue();
        assertThat(h.state().status()).isEqualTo(ConnectionState.Status.CLOSED);
        CompletableFuture<ClusterInventory> later = CompletableFuture.supplyAsync(() -> {
            try {
                return h.inventory();
            } catch (BackendException e) {
                throw new IllegalStateException(e);
            }
        });
        assertThat(outcome(later, 10)).as("a call after close").isInstanceOfSatisfying(BackendException.class,
                e -> assertThat(e.getMessage()).contains("closed"));
        assertThat(stuck).isNotDone(); // the host is still silent: only the proxy's end (after the test) frees it
    }

    /** Waits (bounded, so that a hang fails the test instead of freezing the build) for the call's failure. */
    private static Throwable outcome(CompletableFuture<?> call, int seconds) throws InterruptedException {
        try {
            Object result = call.get(seconds, TimeUnit.SECONDS);
            throw new AssertionError("the call to a host that does not answer returned " + result);
        } catch (ExecutionException e) {
            Throwable t = e.getCause();
            return t instanceof IllegalStateException && t.getCause() != null ? t.getCause() : t;
        } catch (TimeoutException e) {
            throw new AssertionError("the call to a host that does not answer still hangs after " + seconds + " s");
        }
    }

    /**
     * Whether {@code t} is inside a native libvirt call within the time: a close that came before the call even
     * started would make the call fail as "closed", and the test would prove nothing about a call stuck on the host.
     */
    private static boolean entersLibvirtWithin(Thread t, int seconds) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (System.nanoTime() < end && t.isAlive()) {
            for (StackTraceElement f : t.getStackTrace()) {
                if (f.getClassName().startsWith("org.libvirt") || f.getClassName().startsWith("com.sun.jna")) {
                    return true;
                }
            }
            Thread.sleep(20);
        }
        return false;
    }

    static boolean returnsWithin(Runnable r, int seconds) throws InterruptedException {
        Thread t = new Thread(r, "closer");
        t.setDaemon(true);
        t.start();
        t.join(TimeUnit.SECONDS.toMillis(seconds));
        return !t.isAlive();
    }
}
