package io.gpuforge.domain.telemetry;

import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;

/** A GPU's enforced power limit and the range its board allows, in watts, where the source reports them. */
public record PowerLimit(GpuId gpu, String name, OptionalDouble currentW, OptionalDouble minW, OptionalDouble maxW) {

    public PowerLimit {
        Objects.requireNonNull(gpu);
        Objects.requireNonNull(name);
        Objects.requireNonNull(currentW);
        Objects.requireNonNull(minW);
        Objects.requireNonNull(maxW);
    }

    /** What a GPU's reading says of its power limit. */
    public static PowerLimit of(GpuSample s) {
        return new PowerLimit(s.gpu(), s.name(), s.get(GpuMetric.POWER_LIMIT_W), s.get(GpuMetric.POWER_MIN_LIMIT_W),
                s.get(GpuMetric.POWER_MAX_LIMIT_W));
    }

    /** Why {@code watts} cannot be set, or empty when it can. */
    public Optional<String> refuse(double watts) {
        if (!Double.isFinite(watts) || watts <= 0) {
            return Optional.of("the power limit must be a positive number of watts, not " + watts);
        }
        if (minW.isPresent() && watts < minW.getAsDouble() || maxW.isPresent() && watts > maxW.getAsDouble()) {
            return Optional.of(String.format(Locale.ROOT,
                    "%.0f W is outside what %s allows (%s to %s W); choose a limit in that range", watts,
                    name.isEmpty() ? gpu.toString() : name, fmt(minW), fmt(maxW)));
        }
        if (minW.isEmpty() || maxW.isEmpty()) {
            return Optional.of("the source of " + gpu + " does not report the allowed power-limit range,"
                    + " so GPUForge cannot check " + watts + " W; read the GPU with NVML or nvidia-smi");
        }
        return Optional.empty();
    }

    private static String fmt(OptionalDouble d) {
        return d.isPresent() ? String.format(Locale.ROOT, "%.0f", d.getAsDouble()) : "?";
    }
}
