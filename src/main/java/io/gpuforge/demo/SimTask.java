package io.gpuforge.demo;

import java.util.ArrayList;
import java.util.List;

/** A task that takes simulated time, then applies its effect once. */
final class SimTask {
    final String upid;
    final String node;
    final String type;
    final String id;
    final long startMillis;
    final long durationMillis;
    final List<String> log = new ArrayList<>();
    Runnable effect;
    String exitStatus;
    long endMillis;
    boolean stopped;

    SimTask(String upid, String node, String type, String id, long startMillis, long durationMillis, Runnable effect) {
        this.upid = upid;
        this.node = node;
        this.type = type;
        this.id = id;
        this.startMillis = startMillis;
        this.durationMillis = durationMillis;
        this.effect = effect;
    }

    /** Finishes the task when its time has come (or it was stopped). */
    void advance(long now) {
        if (exitStatus != null) {
            return;
        }
        if (stopped) {
            exitStatus = "interrupted by signal";
            log.add("TASK ERROR: interrupted by signal");
            endMillis = now;
            return;
        }
        if (now >= startMillis + durationMillis) {
            try {
                effect.run();
                exitStatus = "OK";
                log.add("TASK OK");
            } catch (RuntimeException e) {
                exitStatus = e.getMessage();
                log.add("TASK ERROR: " + e.getMessage());
            }
            endMillis = now;
        }
    }
}
