package io.gpuforge.domain.telemetry;

import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * An alert rule: for one GPU or for every GPU ({@code gpu} empty), a condition that must hold for {@code hold}
 * before the alert fires. It clears only once the value is back below the threshold by {@code hysteresis}
 * (degrees, or percentage points of the power limit) and stays there, so a value that flaps around the threshold
 * fires once instead of on every sample. {@code id} is 0 until stored.
 */
public record AlertRule(long id, Optional<GpuId> gpu, Kind kind, double threshold, Duration hold, double hysteresis,
                        boolean enabled) {

    /** What a rule watches. */
    public enum Kind {
        /** Temperature ≥ threshold °C. */
        TEMPERATURE,
        /** Power draw ≥ threshold % of the enforced power limit. */
        POWER_OF_LIMIT,
        /** The GPU reports a throttle reason (power cap, thermal or hardware slowdown). */
        THROTTLING,
        /** No readings from the GPU's source. */
        SOURCE_LOST;

        public String json() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }

        public static Kind fromJson(String s) {
            return valueOf(s.toUpperCase(Locale.ROOT).replace('-', '_'));
        }

        /** Whether the rule has a threshold (the others are on/off). */
        public boolean hasThreshold() {
            return this == TEMPERATURE || this == POWER_OF_LIMIT;
        }
    }

    public static final Duration MAX_HOLD = Duration.ofHours(1);

    public AlertRule {
        Objects.requireNonNull(gpu);
        Objects.requireNonNull(kind);
        Objects.requireNonNull(hold);
        if (hold.isNegative() || hold.compareTo(MAX_HOLD) > 0) {
            throw new IllegalArgumentException("an alert waits 0 s to 1 h before it fires, not " + hold.toSeconds()
                    + " s");
        }
        if (!Double.isFinite(hysteresis) || hysteresis < 0) {
            throw new IllegalArgumentException("the hysteresis must be 0 or more, not " + hysteresis);
        }
        if (kind == Kind.TEMPERATURE && !(threshold >= 1 && threshold <= 150)) {
            throw new IllegalArgumentException("a temperature alert needs a threshold of 1 to 150 °C, not "
                    + threshold);
        }
        if (kind == Kind.POWER_OF_LIMIT && !(threshold >= 1 && threshold <= 200)) {
            throw new IllegalArgumentException("a power alert needs a threshold of 1 to 200 % of the limit, not "
                    + threshold);
        }
        if (!kind.hasThreshold()) {
            threshold = 0;
        }
    }

    /** A new rule with the usual hysteresis: 3 °C, 5 % of the limit. */
    public static AlertRule of(Optional<GpuId> gpu, Kind kind, double threshold, Duration hold) {
        double h = kind == Kind.TEMPERATURE ? 3 : kind == Kind.POWER_OF_LIMIT ? 5 : 0;
        return new AlertRule(0, gpu, kind, threshold, hold, h, true);
    }

    public AlertRule withId(long newId) {
        return new AlertRule(newId, gpu, kind, threshold, hold, hysteresis, enabled);
    }

    public AlertRule withEnabled(boolean on) {
        return new AlertRule(id, gpu, kind, threshold, hold, hysteresis, on);
    }

    public boolean appliesTo(GpuId g) {
        return enabled && gpu.map(g::equals).orElse(true);
    }

    /** The rule in words, for the log and the event panel. */
    public String describe() {
        String what;
        switch (kind) {
            case TEMPERATURE:
                what = String.format(Locale.ROOT, "temperature ≥ %.0f °C", threshold);
                break;
            case POWER_OF_LIMIT:
                what = String.format(Locale.ROOT, "power ≥ %.0f %% of the limit", threshold);
                break;
            case THROTTLING:
                what = "throttling";
                break;
            default:
                what = "source lost";
                break;
        }
        return what + (hold.isZero() ? "" : " for " + hold.toSeconds() + " s")
                + gpu.map(g -> " on " + g).orElse(" on any GPU");
    }
}
