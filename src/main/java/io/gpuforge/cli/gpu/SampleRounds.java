package io.gpuforge.cli.gpu;

import io.gpuforge.domain.telemetry.GpuId;
import io.gpuforge.domain.telemetry.GpuSample;
import io.gpuforge.domain.telemetry.SourceInfo;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code gpu watch --count N}: N samples, a sample being one reading of every GPU watched. Each source is counted by
 * its own rounds: a polled source's batch is a whole round; a stream's round ends where one of its GPUs comes again.
 * A failing source's gaps count as its round (it was read and said nothing), so a dead source does not hold the
 * watch open. Not thread-safe: the caller holds its lock.
 */
final class SampleRounds {

    private final long wanted;
    /** How many sources the watch reads, once known (-1 before: not complete). */
    private int sources = -1;
    private final Map<SourceInfo, Long> done = new HashMap<>();
    private final Map<SourceInfo, Set<GpuId>> current = new HashMap<>();

    SampleRounds(long wanted) {
        this.wanted = wanted;
    }

    /** How many sources the watch reads (each must give its N rounds), once it has opened them. */
    void sources(int n) {
        sources = n;
    }

    /** The samples of a batch that belong to the first N rounds of its source (none once it gave them). */
    List<GpuSample> accept(SourceInfo source, boolean wholeRound, List<GpuSample> batch) {
        long rounds = done.getOrDefault(source, 0L);
        if (rounds >= wanted) {
            return List.of();
        }
        if (wholeRound) {
            done.put(source, rounds + 1);
            return batch;
        }
        Set<GpuId> seen = current.computeIfAbsent(source, k -> new HashSet<>());
        if (batch.stream().anyMatch(s -> seen.contains(s.gpu()))) {
            seen.clear();
            done.put(source, ++rounds);
            if (rounds >= wanted) {
                return List.of();
            }
        }
        batch.forEach(s -> seen.add(s.gpu()));
        return batch;
    }

    /** Whether every source gave its N rounds. */
    boolean complete() {
        return sources >= 0 && done.size() >= sources && done.values().stream().allMatch(n -> n >= wanted);
    }
}
