package io.gpuforge.ui.monitor;

import io.gpuforge.app.monitor.GpuFleet;
import io.gpuforge.domain.telemetry.SourceStatus;
import io.gpuforge.ui.common.I18n;
import java.util.List;

/** The sources of the readings and how each is doing, one line each, for the bottom of the charts. */
final class SourcesText {

    private SourcesText() {
    }

    static String of(I18n i18n, List<GpuFleet.Source> sources) {
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
                    state = i18n.get("monitor.sources.failing", st.problem().orElse(""));
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
