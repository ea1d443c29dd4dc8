package io.gpuforge.app.monitor;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Those told that the fleet changed; one that throws is logged and the others are still told. Thread-safe. */
final class FleetListeners {

    private static final Logger LOG = LoggerFactory.getLogger(FleetListeners.class);
    private final List<GpuFleet.Listener> all = new CopyOnWriteArrayList<>();

    void add(GpuFleet.Listener l) {
        all.add(l);
    }

    void remove(GpuFleet.Listener l) {
        all.remove(l);
    }

    void clear() {
        all.clear();
    }

    /** Tells every listener that rows, readings or sources changed. */
    void changed() {
        for (GpuFleet.Listener l : all) {
            try {
                l.changed();
            } catch (RuntimeException e) {
                LOG.warn("A GPU monitor listener failed", e);
            }
        }
    }
}
