package io.gpuforge.ui.diagnose;

import io.gpuforge.domain.diagnose.Finding;
import io.gpuforge.ui.common.I18n;

/** A cause's title in the window's language (the engine's own title is English). */
final class CauseTitles {

    private CauseTitles() {
    }

    static String of(Finding f, I18n i18n) {
        return switch (f.id()) {
            case "iommu-off" -> i18n.get("diagnose.cause.iommu-off");
            case "vgpu-unsupported-gpu" -> i18n.get("diagnose.cause.vgpu-unsupported-gpu");
            case "mdev-start-failed" -> i18n.get("diagnose.cause.mdev-start-failed");
            case "vga-slot-conflict" -> i18n.get("diagnose.cause.vga-slot-conflict");
            case "group-not-viable" -> i18n.get("diagnose.cause.group-not-viable");
            case "group-split" -> i18n.get("diagnose.cause.group-split");
            case "vfio-device-busy" -> i18n.get("diagnose.cause.vfio-device-busy");
            case "bar-reserved-by-framebuffer" -> i18n.get("diagnose.cause.bar-reserved-by-framebuffer");
            case "reset-bug" -> i18n.get("diagnose.cause.reset-bug");
            case "power-state" -> i18n.get("diagnose.cause.power-state");
            case "no-reset-mechanism" -> i18n.get("diagnose.cause.no-reset-mechanism");
            case "dma-map-failed" -> i18n.get("diagnose.cause.dma-map-failed");
            case "dmar-fault" -> i18n.get("diagnose.cause.dmar-fault");
            case "mmio-window-too-small" -> i18n.get("diagnose.cause.mmio-window-too-small");
            case "hypervisor-visible-to-driver" -> i18n.get("diagnose.cause.hypervisor-visible-to-driver");
            case "no-interrupt" -> i18n.get("diagnose.cause.no-interrupt");
            case "guest-code-43" -> i18n.get("diagnose.cause.guest-code-43");
            default -> f.title();
        };
    }
}
