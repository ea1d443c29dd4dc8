package io.gpuforge.hypervisor.libvirt;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.domain.BackendException;
import java.nio.file.Path;
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
        proxy.close();
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

    static boolean returnsWithin(Runnable r, int seconds) throws InterruptedException {
        Thread t = new Thread(r, "closer");
        t.setDaemon(true);
        t.start();
        t.join(TimeUnit.SECONDS.toMillis(seconds));
        return !t.isAlive();
    }
}
