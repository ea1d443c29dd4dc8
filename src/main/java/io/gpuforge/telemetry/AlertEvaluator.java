package io.gpuforge.telemetry;

import io.gpuforge.domain.telemetry.AlertEvent;
import io.gpuforge.domain.telemetry.AlertRule;
import io.gpuforge.domain.telemetry.GpuId;
import io.gpuforge.domain.telemetry.GpuMetric;
import io.gpuforge.domain.telemetry.GpuSample;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalDouble;

/**
 * Evaluates alert rules against GPU samples as they arrive. A rule fires when its condition has held for the rule's
 * hold time; it clears only once the value is below the threshold by the rule's hysteresis and has stayed there for
 * {@link #CLEAR_AFTER_MILLIS} (or the hold time, if longer). So a value that flaps around the threshold fires once.
 * A source is lost when its samples are gap markers, or when nothing arrived for {@link #silenceMillis}: see
 * {@link #tick}. Pure logic over samples (no clock of its own, no I/O); thread-safe.
 */
public final class AlertEvaluator {

    /** How long a condition must stay off before its alert clears (at least). */
    public static final long CLEAR_AFTER_MILLIS = 5_000;
    /** NVML throttle (clock event) reasons that mean the GPU is held back: SW power cap, HW slowdown, SW/HW thermal, power brake. */
    public static final long THROTTLING_BITS = 0x4 | 0x8 | 0x40 | 0x80 | 0x100;

    /** ON: the condition holds; OFF: clear of it by the hysteresis; BAND: in between; UNKNOWN: not reported. */
    private enum Reading { ON, OFF, BAND, UNKNOWN }

    private static final class State {
        long onSince = -1;
        long offSince = -1;
        boolean firing;
    }

    private record Seen(long atMillis, int intervalMillis, String name) {
    }

    private final Map<Long, AlertRule> rules = new LinkedHashMap<>();
    private final Map<Long, Map<GpuId, State>> states = new HashMap<>();
    private final Map<GpuId, Seen> seen = new LinkedHashMap<>();

    public AlertEvaluator(List<AlertRule> initial) {
        setRules(initial);
    }

    /** Replaces the rules; a rule that is still there unchanged keeps its state (a firing alert stays fired). */
    public synchronized void setRules(List<AlertRule> next) {
        Map<Long, AlertRule> keep = new LinkedHashMap<>();
        for (AlertRule r : next) {
            if (r.id() <= 0) {
                throw new IllegalArgumentException("an alert rule must be stored (have an id) before it is evaluated");
            }
            keep.put(r.id(), r);
        }
        states.keySet().removeIf(id -> !Objects.equals(keep.get(id), rules.get(id)));
        rules.clear();
        rules.putAll(keep);
    }

    /** The GPUs are no longer watched (the monitor closed): forget them, so that silence is no lost source. */
    public synchronized void forgetAll() {
        states.clear();
        seen.clear();
    }

    /** Evaluates every rule that applies to the sample's GPU; returns what fired or cleared. */
    public synchronized List<AlertEvent> accept(GpuSample s) {
        List<AlertEvent> out = new ArrayList<>();
        Seen before = seen.get(s.gpu());
        String name = s.name().isEmpty() && before != null ? before.name() : s.name();
        if (!s.isGap() || before == null) {
            seen.put(s.gpu(), new Seen(s.timeMillis(), s.intervalMillis(), name));
        }
        for (AlertRule r : rules.values()) {
            if (!r.appliesTo(s.gpu())) {
                continue;
            }
            Reading reading = read(r, s);
            OptionalDouble value = value(r, s);
            step(r, s.gpu(), name, reading, s.timeMillis(), s.timeMillis(), value, out);
        }
        return out;
    }

    /**
     * Time passes without samples: a GPU silent for longer than {@link #silenceMillis} of its interval counts as
     * lost since its last reading (a source that hangs instead of failing).
     */
    public synchronized List<AlertEvent> tick(long nowMillis) {
        List<AlertEvent> out = new ArrayList<>();
        for (Map.Entry<GpuId, Seen> e : seen.entrySet()) {
            Seen last = e.getValue();
            boolean silent = nowMillis - last.atMillis() > silenceMillis(last.intervalMillis());
            for (AlertRule r : rules.values()) {
                if (r.kind() == AlertRule.Kind.SOURCE_LOST && r.appliesTo(e.getKey())) {
                    State st = state(r, e.getKey());
                    if (silent) {
                        step(r, e.getKey(), last.name(), Reading.ON, nowMillis,
                                st.onSince >= 0 ? st.onSince : last.atMillis() + last.intervalMillis(),
                                OptionalDouble.empty(), out);
                    } else if (st.onSince >= 0 && !st.firing) {
                        // a lost source that is not firing yet may be due by now
                        step(r, e.getKey(), last.name(), Reading.ON, nowMillis, st.onSince, OptionalDouble.empty(), out);
                    }
                }
            }
        }
        return out;
    }

    /** How long a GPU may be silent before it counts as lost: 3 intervals, at least 10 s. */
    public static long silenceMillis(int intervalMillis) {
        return Math.max(10_000, 3L * intervalMillis);
    }

    /** The alerts firing now, as (rule, GPU). */
    public synchronized List<Map.Entry<AlertRule, GpuId>> firing() {
        List<Map.Entry<AlertRule, GpuId>> out = new ArrayList<>();
        states.forEach((id, byGpu) -> byGpu.forEach((g, st) -> {
            if (st.firing) {
                out.add(Map.entry(rules.get(id), g));
            }
        }));
        return out;
    }

    private State state(AlertRule r, GpuId g) {
        return states.computeIfAbsent(r.id(), k -> new HashMap<>()).computeIfAbsent(g, k -> new State());
    }

    /** One reading of one rule for one GPU at {@code now}; {@code since} is when an ON reading began. */
    private void step(AlertRule r, GpuId g, String name, Reading reading, long now, long since, OptionalDouble value,
                      List<AlertEvent> out) {
        State st = state(r, g);
        long holdMillis = r.hold().toMillis();
        if (reading == Reading.ON) {
            st.offSince = -1;
            if (st.onSince < 0) {
                st.onSince = Math.min(since, now);
            }
            if (!st.firing && now - st.onSince >= holdMillis) {
                st.firing = true;
                out.add(new AlertEvent(r, g, name, AlertEvent.State.FIRED, now, value));
            }
        } else if (reading == Reading.OFF) {
            st.onSince = -1;
            if (st.firing) {
                if (st.offSince < 0) {
                    st.offSince = now;
                }
                if (now - st.offSince >= Math.max(CLEAR_AFTER_MILLIS, holdMillis)) {
                    st.firing = false;
                    st.offSince = -1;
                    out.add(new AlertEvent(r, g, name, AlertEvent.State.CLEARED, now, value));
                }
            }
        } else if (reading == Reading.BAND) {
            // between the threshold and the hysteresis: neither held long enough to fire, nor clear
            st.onSince = -1;
            st.offSince = -1;
        }
        // UNKNOWN (the metric is not reported): nothing changes
    }

    /** ON above the threshold, OFF below it by the hysteresis, UNKNOWN in the band or without the reading. */
    private static Reading read(AlertRule r, GpuSample s) {
        switch (r.kind()) {
            case SOURCE_LOST:
                return s.isGap() ? Reading.ON : Reading.OFF;
            case THROTTLING: {
                if (!s.has(GpuMetric.THROTTLE_REASONS)) {
                    return Reading.UNKNOWN;
                }
                return ((long) s.raw(GpuMetric.THROTTLE_REASONS) & THROTTLING_BITS) != 0 ? Reading.ON : Reading.OFF;
            }
            default: {
                OptionalDouble v = value(r, s);
                if (v.isEmpty()) {
                    return Reading.UNKNOWN;
                }
                double x = v.getAsDouble();
                return x >= r.threshold() ? Reading.ON : x < r.threshold() - r.hysteresis() ? Reading.OFF
                        : Reading.BAND;
            }
        }
    }

    private static OptionalDouble value(AlertRule r, GpuSample s) {
        switch (r.kind()) {
            case TEMPERATURE:
                return s.get(GpuMetric.TEMPERATURE_C);
            case POWER_OF_LIMIT: {
                double p = s.raw(GpuMetric.POWER_W);
                double l = s.raw(GpuMetric.POWER_LIMIT_W);
                return Double.isNaN(p) || Double.isNaN(l) || l <= 0 ? OptionalDouble.empty()
                        : OptionalDouble.of(p * 100 / l);
            }
            case THROTTLING:
                return s.get(GpuMetric.THROTTLE_REASONS);
            default:
                return OptionalDouble.empty();
        }
    }
}
