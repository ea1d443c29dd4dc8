package io.gpuforge.app.monitor;

import io.gpuforge.domain.telemetry.GpuId;
import io.gpuforge.domain.telemetry.GpuSample;
import io.gpuforge.telemetry.SimulatedGpuSource;
import io.gpuforge.telemetry.SourceException;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The Demo lab's GPU simulations as telemetry knows them: which GPU each belongs to, which are running (a watch
 * holds them), and what outlives one watch as a host would keep it: the power limits set on its GPUs and whether its
 * sensors are unplugged. Thread-safe.
 */
final class DemoSimulations {

    private final Clock clock;
    private final Map<GpuId, SimulatedGpuSource> byGpu = new ConcurrentHashMap<>();
    private final Set<SimulatedGpuSource> live = ConcurrentHashMap.newKeySet();
    private final Map<GpuId, Double> limits = new ConcurrentHashMap<>();
    private volatile boolean sensorsLost;

    DemoSimulations(Clock clock) {
        this.clock = clock;
    }

    /** A simulation a watch starts: its GPUs learnt, the limits and sensor state set earlier applied to it. */
    void started(SimulatedGpuSource s) {
        List<GpuSample> first;
        try {
            first = s.poll(clock.millis(), 1000);
        } catch (SourceException e) {
            first = List.of();
        }
        for (GpuSample x : first) {
            byGpu.put(x.gpu(), s);
            Double limit = limits.get(x.gpu());
            if (limit != null) {
                s.setPowerLimit(x.gpu(), limit);
            }
        }
        s.unplug(sensorsLost);
        live.add(s);
    }

    /** A simulation whose watch closed. */
    void stopped(SimulatedGpuSource s) {
        live.remove(s);
    }

    /** Whether {@code gpu} is one of the Demo lab's. */
    boolean simulates(GpuId gpu) {
        return byGpu.containsKey(gpu);
    }

    /** Sets a simulated GPU's power limit now and for the simulations started later. */
    void setPowerLimit(GpuId gpu, double watts) {
        limits.put(gpu, watts);
        live.forEach(sim -> sim.setPowerLimit(gpu, watts));
    }

    /** Unplugs (or plugs in again) every running simulation's sensors; returns how many GPUs they hold. */
    int sensorLoss(boolean lost) {
        sensorsLost = lost;
        live.forEach(s -> s.unplug(lost));
        return (int) byGpu.keySet().stream().filter(g -> live.contains(byGpu.get(g))).count();
    }
}
