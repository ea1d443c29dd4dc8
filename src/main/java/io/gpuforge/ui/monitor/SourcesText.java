package io.gpuforge.ui.monitor;

import io.gpuforge.app.monitor.GpuFleet;
import io.gpuforge.app.monitor.TelemetryService;
import io.gpuforge.domain.telemetry.SourceInfo;
import io.gpuforge.domain.telemetry.SourceStatus;
import io.gpuforge.ui.common.I18n;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/** The sources of the readings and how each is doing, one line each, for the bottom of the charts. */
final class SourcesText {

    private SourcesText() {
    }

    static String of(I18n i18n, List<GpuFleet.Source> sources) {
        return of(i18n, sources, c -> Optional.empty());
    }

    /**
     * With {@code lastReading}: for a failing source, the time of its connection's last reading ("no data since
     * 10:42:07") and when it is tried again.
     */
    static String of(I18n i18n, List<GpuFleet.Source> sources, Function<String, Optional<Instant>> lastReading) {
        StringBuilder b = new StringBuilder(i18n.get("monitor.sources"));
        for (GpuFleet.Source s : sources) {
            b.append('\n').append("• ");
            if (s.status().isEmpty()) {
                String who = s.connection().isEmpty() ? "GPUForge" : s.connection().equals("local")
                        ? i18n.get("monitor.sources.local") : s.connection();
                b.append(i18n.get("monitor.sources.problem", who,
                        s.reason() == TelemetryService.Failure.Reason.NO_LOCAL_SOURCE
                                ? i18n.get("monitor.sources.noLocalSource") : s.problem().orElse("")));
                continue;
            }
            SourceStatus st = s.status().get();
            String state;
            switch (st.state()) {
                case OK:
                    state = i18n.get("monitor.sources.ok", st.gpus());
                    break;
                case FAILING:
                    String retry = st.retryAt().map(MonitorText::clock).orElse("—");
                    Optional<Instant> last = lastReading.apply(s.connection());
                    state = last.isPresent() ? i18n.get("monitor.sources.noDataSince", MonitorText.clock(last.get()),
                            st.problem().orElse(""), retry) : i18n.get("monitor.sources.failing",
                            st.problem().orElse(""), retry);
                    break;
                default:
                    state = i18n.get("monitor.sources.starting");
                    break;
            }
            b.append(i18n.get("monitor.sources.line", source(i18n, st.source()), state));
        }
        return b.toString();
    }

    /** A source in the window's words, from its kind and the place it reads. */
    static String source(I18n i18n, SourceInfo s) {
        return switch (s.kind()) {
            case NVML -> i18n.get("monitor.sources.from.nvml");
            case NVIDIA_SMI -> i18n.get("monitor.sources.from.nvidiaSmi", s.where());
            case GUEST_AGENT -> i18n.get("monitor.sources.from.guestAgent", s.where());
            case HWMON -> i18n.get("monitor.sources.from.hwmon", s.where());
            case DCGM_EXPORTER -> i18n.get("monitor.sources.from.dcgm", s.where());
            case NVIDIA_GPU_EXPORTER -> i18n.get("monitor.sources.from.exporter", s.where());
            case SIMULATED -> i18n.get("monitor.sources.from.simulated", s.where());
        };
    }
}
