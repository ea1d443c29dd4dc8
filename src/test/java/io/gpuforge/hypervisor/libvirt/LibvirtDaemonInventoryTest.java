package io.gpuforge.hypervisor.libvirt;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.domain.BackendException;
import io.gpuforge.domain.vm.VmSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * The inventory of a real host where other people (or tools) define and remove domains meanwhile: a domain
 * that goes away between libvirt's list and the look-up of its details must not make the whole inventory fail.
 */
class LibvirtDaemonInventoryTest {

    @Test
    void theInventoryOfAHostWhoseDomainsComeAndGoIsReadWhole() throws Exception {
        LibvirtDaemon.socketOrSkip();
        String name = "gf-churn-" + Long.toHexString(System.nanoTime());
        VmSpec spec = new VmSpec(name, 1, 128, Optional.empty(), VmSpec.USER_NETWORK, Optional.empty(), List.of(), false,
                false);
        AtomicBoolean stop = new AtomicBoolean();
        List<Exception> churnFailures = new ArrayList<>();
        Thread churn = new Thread(() -> {
            try (LibvirtConnection c = LibvirtConnection.open(LibvirtDaemon.URI)) {
                while (!stop.get()) {
                    c.define(spec);
                    c.undefine(name);
                }
            } catch (LibvirtBackendException e) {
                churnFailures.add(e);
            }
        }, "churn");
        List<BackendException> failures = new ArrayList<>();
        try (LibvirtHypervisor h = LibvirtHypervisor.open(LibvirtDaemon.URI)) {
            churn.start();
            for (int i = 0; i < 60; i++) {
                try {
                    h.inventory();
                } catch (BackendException e) {
                    failures.add(e);
                }
            }
        } finally {
            stop.set(true);
            churn.join();
            try (LibvirtConnection c = LibvirtConnection.open(LibvirtDaemon.URI)) {
                if (c.domains().stream().anyMatch(v -> v.name().equals(name))) {
                    c.undefine(name);
                }
            }
        }
        assertThat(churnFailures).isEmpty();
        assertThat(failures).as("inventories that failed while a domain came and went").isEmpty();
    }
}
