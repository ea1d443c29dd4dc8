package io.gpuforge.hypervisor.libvirt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpuforge.domain.BackendException;
import io.gpuforge.domain.passthrough.ConfigChange;
import io.gpuforge.domain.tasks.TaskListener;
import io.gpuforge.domain.vm.VmAction;
import io.gpuforge.domain.vm.VmConfig;
import io.gpuforge.domain.vm.VmRef;
import io.gpuforge.domain.vm.VmSpec;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The guest agent of real QEMU guests (TCG, OVMF, no OS inside): a running VM without the agent's channel, and
 * one with the channel but no agent answering, each refused with what the user has to do.
 */
class LibvirtDaemonGuestAgentTest {

    private static final String CHANNEL = "<channel type='unix'><target type='virtio' name='org.qemu.guest_agent.0'/>"
            + "</channel>";
    private final String name = "gf-agent-" + Long.toHexString(System.nanoTime());

    @AfterEach
    void undefine() throws Exception {
        if (!Files.exists(LibvirtDaemon.SOCKET)) {
            return; // skipped: nothing was defined
        }
        try (LibvirtConnection c = LibvirtConnection.open(LibvirtDaemon.URI)) {
            if (c.domains().stream().anyMatch(v -> v.name().equals(name))) {
                try {
                    c.forceOff(name);
                } catch (LibvirtBackendException e) {
                    // not running
                }
                c.undefine(name);
            }
        }
    }

    @Test
    void aRunningVmWithoutTheAgentsChannelOrWithoutAnAgentSaysWhatToDo() throws Exception {
        LibvirtDaemon.socketOrSkip();
        try (LibvirtConnection c = LibvirtConnection.open(LibvirtDaemon.URI)) {
            c.define(new VmSpec(name, 1, 256, Optional.empty(), VmSpec.USER_NETWORK, Optional.empty(), List.of(), true,
                    false));
        }
        try (LibvirtHypervisor h = LibvirtHypervisor.open(LibvirtDaemon.URI)) {
            VmRef vm = new VmRef(h.inventory().name(), name);
            h.vmAction(vm, VmAction.START).await(TaskListener.none(), () -> false, Duration.ofSeconds(60));
            assertThatThrownBy(() -> h.vmAction(vm, VmAction.START)).isInstanceOfSatisfying(BackendException.class,
                    e -> assertThat(e.kind()).isEqualTo(BackendException.Kind.INVALID));
            assertThatThrownBy(() -> h.guestExec(vm, List.of("true"), Duration.ofSeconds(5)))
                    .isInstanceOfSatisfying(BackendException.class, e -> assertThat(e.getMessage())
                            .contains("has no QEMU guest agent channel").contains("org.qemu.guest_agent.0"));
            h.vmAction(vm, VmAction.STOP);

            VmConfig config = h.readConfig(vm);
            h.writeConfig(vm, new ConfigChange.Document(config.document().replace("</devices>", CHANNEL + "</devices>")),
                    config.version());
            assertThat(h.readConfig(vm).details().guestAgent()).hasValue(true);
            h.vmAction(vm, VmAction.START);
            assertThatThrownBy(() -> h.guestExec(vm, List.of("true"), Duration.ofSeconds(5)))
                    .isInstanceOfSatisfying(BackendException.class, e -> assertThat(e.getMessage())
                            .contains("is not running or not connected").contains("qemu-guest-agent"));
        }
    }
}
