package io.gpuforge.ui.host;

import io.gpuforge.domain.host.HostSummary;
import io.gpuforge.ui.common.I18n;
import java.util.Locale;

/** Turns a {@link HostSummary} into the localised lines of the summary card. */
final class HostFactsFormat {

    private final I18n i18n;

    HostFactsFormat(I18n i18n) {
        this.i18n = i18n;
    }

    String unknown() {
        return i18n.get("value.unknown");
    }

    String os(HostSummary s) {
        return s.operatingSystem().orElseGet(this::unknown);
    }

    String kernel(HostSummary s) {
        return s.kernel().map(k -> k + " (" + s.architecture() + ")").orElseGet(this::unknown);
    }

    String cpu(HostSummary s) {
        String model = s.cpuModel().orElseGet(this::unknown);
        String threads = s.logicalCpus() > 0 ? i18n.get("host.cpu.threads", s.logicalCpus()) : "";
        return threads.isEmpty() ? model : model + " · " + threads;
    }

    String memory(HostSummary s) {
        return s.memoryBytes().map(HostFactsFormat::gib).orElseGet(this::unknown);
    }

    static String gib(long bytes) {
        return String.format(Locale.ROOT, "%.1f GiB", bytes / (1024.0 * 1024 * 1024));
    }

    String iommu(HostSummary s) {
        switch (s.iommu()) {
            case ENABLED:
                return i18n.get("host.iommu.enabled", s.iommuGroups());
            case DISABLED:
                return i18n.get("host.iommu.disabled");
            default:
                return i18n.get("host.iommu.unknown");
        }
    }

    static String iommuStyle(HostSummary s) {
        switch (s.iommu()) {
            case ENABLED:
                return "badge-ok";
            case DISABLED:
                return "badge-warn";
            default:
                return "badge-muted";
        }
    }
}
