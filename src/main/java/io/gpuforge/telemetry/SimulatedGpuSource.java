package io.gpuforge.telemetry;

import io.gpuforge.domain.telemetry.GpuId;
import io.gpuforge.domain.telemetry.GpuMetric;
import io.gpuforge.domain.telemetry.GpuSample;
import io.gpuforge.domain.telemetry.SourceInfo;
import io.gpuforge.domain.telemetry.SourceKind;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;

/**
 * The Demo lab's GPUs: simulated sensors, clearly labelled as such ({@link SourceKind#SIMULATED}), with plausible
 * dynamics: the load steps between idle and busy phases; the power follows the load at once but is clamped to the
 * power limit (the throttle reason says so); the temperature follows the power with a thermal lag (a first-order
 * response, time constant ~40 s), the fan follows the temperature. Deterministic for a seed.
 */
public final class SimulatedGpuSource implements GpuSource.Polled {

    /** A simulated card. */
    public record Card(String node, String address, String name, Optional<String> vm, double tdpW, double idleW,
                       double memoryMib) {
    }

    static final long SW_POWER_CAP = 0x4;
    private static final double AMBIENT_C = 28;
    private static final double TAU_S = 40;

    private final String host;
    private final List<State> cards = new ArrayList<>();
    private final SourceInfo info;
    private volatile boolean unplugged;

    private static final class State {
        final Card card;
        final Random random;
        double load;
        double target;
        double temperature = AMBIENT_C + 6;
        double limit;
        long phaseEnds;
        long last = -1;

        State(Card card, long seed) {
            this.card = card;
            this.random = new Random(seed);
            this.limit = card.tdpW();
        }
    }

    public SimulatedGpuSource(String host, List<Card> cards, long seed) {
        this.host = host;
        for (int i = 0; i < cards.size(); i++) {
            this.cards.add(new State(cards.get(i), seed * 31 + i));
        }
        // "demo:Demo lab" is the telemetry id: people know the lab by its name
        String shown = host.startsWith("demo:") ? host.substring(5) : host;
        this.info = new SourceInfo(SourceKind.SIMULATED, host, shown, "simulated sensors of " + shown
                + " (not real readings)");
    }

    /** A card as the Demo lab shows it: an RTX 4090 or 3090 by its name. */
    public static Card card(String node, String address, String name, Optional<String> vm) {
        boolean is4090 = name.contains("4090");
        return new Card(node, address, name.contains("[") ? "NVIDIA GeForce " + name.replaceAll(".*\\[(GeForce )?(.*)\\].*", "$2")
                : name, vm, is4090 ? 450 : 350, is4090 ? 22 : 30, is4090 ? 24564 : 24576);
    }

    @Override
    public SourceInfo info() {
        return info;
    }

    /** Sets a card's power limit (the simulated host obeys at once); empty when there is no such card. */
    public synchronized Optional<Double> setPowerLimit(GpuId gpu, double watts) {
        for (State s : cards) {
            if (id(s.card).equals(gpu)) {
                s.limit = Math.max(minLimit(s.card), Math.min(maxLimit(s.card), watts));
                return Optional.of(s.limit);
            }
        }
        return Optional.empty();
    }

    /** A card's id: the Demo lab and its node as the host (addresses repeat across nodes). */
    private GpuId id(Card c) {
        return new GpuId(host + "/" + c.node(), c.address());
    }

    private static double minLimit(Card c) {
        return Math.round(c.tdpW() * 0.33);
    }

    private static double maxLimit(Card c) {
        return Math.round(c.tdpW() * 1.33);
    }

    /** Unplugs the simulated sensors (polls fail, as a lost host would) or plugs them in again. */
    public void unplug(boolean lost) {
        unplugged = lost;
    }

    @Override
    public synchronized List<GpuSample> poll(long nowMillis, int intervalMillis) throws SourceException {
        if (unplugged) {
            throw new SourceException("the simulated sensors of " + host + " are unplugged (Demo lab): no readings"
                    + " until they are plugged in again");
        }
        List<GpuSample> out = new ArrayList<>();
        for (State s : cards) {
            step(s, nowMillis);
            Card c = s.card;
            double wanted = c.idleW() + s.load * (c.tdpW() * 1.1 - c.idleW());
            double power = Math.min(wanted, s.limit) + s.random.nextGaussian() * 1.5;
            boolean capped = wanted > s.limit;
            double util = Math.min(100, Math.max(0, s.load * 100 + s.random.nextGaussian() * 2));
            double fan = Math.min(100, Math.max(30, (s.temperature - 35) * 2.2));
            out.add(GpuSample.builder(id(c), nowMillis, SourceKind.SIMULATED).name(c.name())
                    .node(Optional.of(c.node())).vm(c.vm()).intervalMillis(intervalMillis)
                    .set(GpuMetric.TEMPERATURE_C, Math.round(s.temperature * 10) / 10.0)
                    .set(GpuMetric.POWER_W, Math.max(c.idleW() * 0.8, power))
                    .set(GpuMetric.POWER_LIMIT_W, s.limit)
                    .set(GpuMetric.POWER_MIN_LIMIT_W, minLimit(c))
                    .set(GpuMetric.POWER_MAX_LIMIT_W, maxLimit(c))
                    .set(GpuMetric.UTILIZATION_PCT, Math.round(util))
                    .set(GpuMetric.MEMORY_USED_MIB, Math.round(400 + s.load * c.memoryMib() * 0.7))
                    .set(GpuMetric.MEMORY_TOTAL_MIB, c.memoryMib())
                    .set(GpuMetric.FAN_PCT, Math.round(fan))
                    .set(GpuMetric.SM_CLOCK_MHZ, s.load > 0.05 ? (capped ? 2200 : 2520) : 210)
                    .set(GpuMetric.MEMORY_CLOCK_MHZ, s.load > 0.05 ? 10501 : 405)
                    .set(GpuMetric.THROTTLE_REASONS, capped ? SW_POWER_CAP : 0)
                    .set(GpuMetric.SLOWDOWN_TEMP_C, 87)
                    .set(GpuMetric.SHUTDOWN_TEMP_C, 92)
                    .build());
        }
        return out;
    }

    /** Advances one card to {@code now}: a new load phase when due, the load ramps, the heat lags the power. */
    private static void step(State s, long now) {
        if (s.last < 0) {
            s.last = now;
            s.phaseEnds = now;
        }
        if (now >= s.phaseEnds) {
            boolean busy = s.random.nextDouble() < 0.55;
            s.target = busy ? 0.6 + 0.4 * s.random.nextDouble() : 0.02 * s.random.nextDouble();
            s.phaseEnds = now + (long) ((busy ? 60 : 30) + s.random.nextDouble() * 120) * 1000;
        }
        double dt = Math.max(0, (now - s.last) / 1000.0);
        s.last = now;
        s.load += (s.target - s.load) * Math.min(1, dt / 3.0);
        Card c = s.card;
        double power = Math.min(c.idleW() + s.load * (c.tdpW() * 1.1 - c.idleW()), s.limit);
        double steady = AMBIENT_C + power * (c.tdpW() > 400 ? 0.115 : 0.14);
        s.temperature += (steady - s.temperature) * (1 - Math.exp(-dt / TAU_S));
    }

    @Override
    public void close() {
        // nothing held
    }
}
