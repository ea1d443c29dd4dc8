package io.gpuforge.app.monitor;

import io.gpuforge.domain.telemetry.FleetGpu;
import io.gpuforge.domain.telemetry.GpuId;
import io.gpuforge.domain.telemetry.GpuSample;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/** The fleet's newest reading of each GPU and its last {@code keep} readings (gap markers included). Thread-safe. */
final class FleetReadings {

    private final int keep;
    private final Map<GpuId, GpuSample> latest = new ConcurrentHashMap<>();
    private final Map<GpuId, Deque<GpuSample>> recent = new ConcurrentHashMap<>();
    private final AtomicLong read = new AtomicLong();

    FleetReadings(int keep) {
        this.keep = keep;
    }

    void add(GpuSample s) {
        if (!s.isGap()) {
            latest.put(s.gpu(), s);
            read.incrementAndGet();
        }
        Deque<GpuSample> d = recent.computeIfAbsent(s.gpu(), k -> new ArrayDeque<>());
        synchronized (d) {
            d.addLast(s);
            while (d.size() > keep) {
                d.removeFirst();
            }
        }
    }

    /** Readings (not gaps) added so far. */
    long read() {
        return read.get();
    }

    Optional<GpuSample> latest(GpuId id) {
        return Optional.ofNullable(latest.get(id));
    }

    /** The newest entry of a GPU, gap markers included. */
    Optional<GpuSample> newest(GpuId id) {
        Deque<GpuSample> d = recent.get(id);
        if (d == null) {
            return Optional.empty();
        }
        synchronized (d) {
            return Optional.ofNullable(d.peekLast());
        }
    }

    /** The readings of a GPU newer than {@code afterMillis}, oldest first. */
    List<GpuSample> recent(GpuId id, long afterMillis) {
        Deque<GpuSample> d = recent.get(id);
        if (d == null) {
            return List.of();
        }
        List<GpuSample> out = new ArrayList<>();
        synchronized (d) {
            for (GpuSample s : d) {
                if (s.timeMillis() > afterMillis) {
                    out.add(s);
                }
            }
        }
        return out;
    }

    /** The readings of each of {@code rows}' GPUs newer than {@code afterMillis}, in the rows' order. */
    Map<GpuId, List<GpuSample>> recentAll(List<FleetGpu> rows, long afterMillis) {
        Map<GpuId, List<GpuSample>> out = new LinkedHashMap<>();
        for (FleetGpu r : rows) {
            out.put(r.id(), recent(r.id(), afterMillis));
        }
        return out;
    }
}
