package io.gpuforge.diagnose;

import io.gpuforge.domain.diagnose.Fix;

/** What a cause means and its fix, from what its match shows; host-side causes here, the guest's in {@link GuestAdvice}. */
final class Advice {

    /** An explanation and its fix. */
    record Said(String explanation, Fix fix) {
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

    /** "the GPU at 0000:01:00.0" or "the GPU" when no line names its address. */
    static String gpu(Match m) {
        return m.address().map(a -> "the device at " + a).orElse("the GPU");
    }
}
