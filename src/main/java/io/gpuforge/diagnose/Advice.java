package io.gpuforge.diagnose;

import io.gpuforge.domain.message.Message;
import io.gpuforge.domain.diagnose.Fix;
import io.gpuforge.domain.diagnose.FixPlan;

/**
 * What a cause means and its fix, from what its match shows, as messages ({@code cause.<id>.why},
 * {@code cause.<id>.fix} in {@code diagnose/messages*.properties}); host-side causes here, the guest's in
 * {@link GuestAdvice}.
 */
final class Advice {

    /** An explanation and its fix. */
    record Said(Message explanation, Fix fix) {
    }

    private Advice() {
    }

    static Said of(Match m) {
        return switch (m.cause().id()) {
            case "iommu-off", "group-not-viable", "group-split", "vfio-device-busy", "vga-slot-conflict",
                 "bar-reserved-by-framebuffer" -> HostAdvice.of(m);
            case "power-state", "reset-bug", "no-reset-mechanism", "dma-map-failed", "dmar-fault" -> DeviceAdvice.of(m);
            default -> GuestAdvice.of(m);
        };
    }

    /** "the device at 0000:01:00.0", or "the GPU" when no line names its address. */
    static Message gpu(Match m) {
        return m.address().map(a -> Message.of("gpu.at", a)).orElse(Message.of("gpu"));
    }

    /** The device's address, or a placeholder for it in a command. */
    static Object address(Match m) {
        return m.address().<Object>map(a -> a).orElse(Message.of("placeholder.address"));
    }

    /** A cause whose fix is a change of the VM, one per hypervisor: its plain why and fix, and the two changes. */
    static Said vmChange(Match m, FixPlan.VmEdit proxmox, FixPlan.VmEdit libvirt) {
        return new Said(says(m, "why"), Fix.withPlan(says(m, "fix"), FixPlan.vm(proxmox, libvirt)));
    }

    /** The message {@code cause.<id>.<part>} of the match's cause. */
    static Message says(Match m, String part, Object... args) {
        return Message.of("cause." + m.cause().id() + "." + part, args);
    }
}
