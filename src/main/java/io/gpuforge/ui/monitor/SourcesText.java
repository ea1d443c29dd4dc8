package io.gpuforge.ui.monitor;

import io.gpuforge.app.monitor.GpuFleet;
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
                b.append(i18n.get("monitor.sources.problem", s.connection().isEmpty() ? "GPUForge" : s.connection(),
                        s.problem().orElse("")));
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
            b.append(st.source().description()).append(": ").append(state);
        }
        return b.toString();
    }
}
