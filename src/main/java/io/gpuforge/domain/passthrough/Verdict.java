package io.gpuforge.domain.passthrough;

import java.util.List;
import java.util.Locale;

/** What the checks add up to for a device, and which checks decided it. */
public record Verdict(Kind kind, List<String> because) {

    public enum Kind {
        READY, NEEDS_HOST_SETUP, BLOCKED;

        public String json() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }
    }

    public Verdict {
        because = List.copyOf(because);
    }
}
