package io.gpuforge.hypervisor.libvirt;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.domain.vm.Firmware;
import io.gpuforge.domain.vm.VmInfo;
import io.gpuforge.domain.vm.VmSpec;
import io.gpuforge.domain.vm.VmState;
import io.gpuforge.testing.Eventually;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * Define → start → shut down → force off → undefine against a real libvirtd with QEMU (TCG), UEFI from
 * OVMF. .ci/run installs libvirt-daemon-system, qemu-system-x86 and ovmf and starts virtlogd and libvirtd.
 */
class LibvirtDaemonTest {

    @Test
    void lifecycleOfAVmBuiltFromASpec() throws Exception {
        LibvirtDaemon.socketOrSkip();
        LibvirtConnection c = LibvirtConnection.open(LibvirtDaemon.URI);
        String name = "gpuforge-it-" + Long.toHexString(System.nanoTime());
        List<String> events = new CopyOnWriteArrayList<>();
        try (c; LibvirtEventLoop loop = new LibvirtEventLoop();
             LibvirtWatch watch = LibvirtWatch.open("qemu:///system", loop, events::add)) {
            assertThat(c.versions()).startsWith("libvirt ").contains("QEMU");
            c.define(new VmSpec(name, 1, 256, Optional.empty(), VmSpec.USER_NETWORK, Optional.empty(), List.of(), true, false));
            assertThat(state(c, name)).isEqualTo("shutoff");
            VmInfo defined = c.domains().stream().filter(v -> v.name().equals(name)).findFirst().orElseThrow();
            assertThat(defined.details().orElseThrow().machine()).hasValueSatisfying(m -> assertThat(m).startsWith("pc-q35"));
            assertThat(defined.details().orElseThrow().firmware()).isEqualTo(Firmware.UEFI);
            assertThat(defined.details().orElseThrow().nics()).singleElement().satisfies(n -> { assertThat(n.model()).isEqualTo("virtio"); assertThat(n.mac()).startsWith("52:54:00:"); assertThat(n.network()).isEqualTo("user"); });
            c.start(name);
            assertThat(state(c, name)).isEqualTo("running");
            c.shutdown(name); // ACPI request: a VM without an OS ignores it
            c.forceOff(name);
            waitFor(() -> "shutoff".equals(state(c, name)));
            c.undefine(name);
            assertThat(c.domains()).noneMatch(v -> v.name().equals(name));
            // the lifecycle arrived as events on the event-loop thread, from another connection
            waitFor(() -> events.contains(name + " UNDEFINED"));
            assertThat(events).containsSubsequence(name + " DEFINED", name + " STARTED", name + " STOPPED",
                    name + " UNDEFINED");
        } finally {
            try (LibvirtConnection cleanup = LibvirtConnection.open("qemu:///system")) {
                if (cleanup.domains().stream().anyMatch(v -> v.name().equals(name))) {
                    try {
                        cleanup.forceOff(name);
                    } catch (LibvirtBackendException ignored) {
                        // not running
                    }
                    cleanup.undefine(name);
                }
            }
        }
    }

    private static String state(LibvirtConnection c, String name) throws LibvirtBackendException {
        return c.domains().stream().filter(v -> v.name().equals(name)).findFirst().map(v -> v.state() == VmState.STOPPED ? "shutoff" : v.state().json()).orElse("absent");
    }

    private interface Cond {
        boolean ok() throws Exception;
    }

    private static void waitFor(Cond c) throws Exception {
        Eventually.untilHolds("libvirtd\'s awaited state", Duration.ofSeconds(30), c::ok);
    }
}
