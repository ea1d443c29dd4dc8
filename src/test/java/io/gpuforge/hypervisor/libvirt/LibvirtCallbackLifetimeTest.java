package io.gpuforge.hypervisor.libvirt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.jna.Callback;
import com.sun.jna.Native;
import io.gpuforge.domain.BackendException;
import io.gpuforge.domain.connections.ConnectionState;
import io.gpuforge.domain.vm.VmRef;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * libvirt keeps the native addresses of the callbacks GPUForge hands it (the error handler, event and close
 * listeners). Once the Java object behind one is garbage-collected, JNA frees or reuses its address, and the next
 * libvirt error lands in whatever callback took the address: a healthy connection suddenly reports itself lost, a
 * lifecycle listener runs on a closed connection, or the process aborts. Every such callback must stay reachable
 * as long as libvirt may call it.
 */
class LibvirtCallbackLifetimeTest {

    private final List<Throwable> fromCallbacks = new CopyOnWriteArrayList<>();
    private Callback.UncaughtExceptionHandler before;

    @BeforeEach
    void catchCallbackFailures() {
        before = Native.getCallbackExceptionHandler();
        Native.setCallbackExceptionHandler((Callback c, Throwable e) -> fromCallbacks.add(e));
    }

    @AfterEach
    void restore() {
        Native.setCallbackExceptionHandler(before);
    }

    @Test
    void libvirtErrorsAfterAGarbageCollectionReachTheirOwnHandler() throws Exception {
        String uri = "test://" + Path.of("src/test/resources/libvirt/gpu-host.xml").toAbsolutePath();
        LibvirtTestDriverTest.openOrSkip(uri).close();
        for (int round = 0; round < 5; round++) {
            collectGarbage();
            try (LibvirtHypervisor h = LibvirtHypervisor.open(uri)) {
                String host = h.inventory().name(); // the test driver refuses virNodeGetFreeMemory: a libvirt error
                assertThatThrownBy(() -> h.readConfig(new VmRef(host, "gf-no-such-vm")))
                        .isInstanceOfSatisfying(BackendException.class,
                                e -> assertThat(e.kind()).isEqualTo(BackendException.Kind.NOT_FOUND));
                assertThat(h.state().status()).as("round %d: a healthy connection", round)
                        .isEqualTo(ConnectionState.Status.CONNECTED);
            }
        }
        assertThat(fromCallbacks).as("libvirt called a callback with another one's arguments").isEmpty();
    }

    private static void collectGarbage() throws InterruptedException {
        for (int i = 0; i < 3; i++) {
            System.gc();
            TimeUnit.MILLISECONDS.sleep(50);
        }
    }
}
