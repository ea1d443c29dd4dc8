package io.gpuforge.cli.serve;

import io.gpuforge.app.AppContext;
import io.gpuforge.app.monitor.TelemetryService;
import io.gpuforge.domain.connections.ConnectionInfo;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the window changes while {@code gpuforge serve} runs, taken up without a restart: the alert rules (each
 * check reads them again; a rule that did not change keeps its state, so nothing fires twice) and the saved
 * connections (a connection added, edited or removed in the window makes the fleet read its GPUs and start its
 * watches again). Called every few seconds from one thread.
 */
final class ServeReloads {

    private static final Logger LOG = LoggerFactory.getLogger(ServeReloads.class);
    private final AppContext ctx;
    private List<ConnectionInfo> connections;

    ServeReloads(AppContext ctx) {
        this.ctx = ctx;
        this.connections = read();
    }

    /** Reads the rules and connections again; returns true when the connections changed (the fleet was refreshed). */
    boolean check() {
        try {
            ctx.alerts().rules();
        } catch (TelemetryService.Failure e) {
            LOG.warn("{}; the rules read before stay in force", e.getMessage());
        }
        List<ConnectionInfo> now = read();
        if (now == null || now.equals(connections)) {
            return false;
        }
        connections = now;
        LOG.info("The saved connections changed: reading their GPUs again");
        ctx.fleet().refresh();
        return true;
    }

    private List<ConnectionInfo> read() {
        try {
            return new ArrayList<>(ctx.connections().all());
        } catch (Exception e) {
            // the store's failure (a locked or damaged database): the connections read before stay watched
            LOG.warn("The saved connections cannot be read: {}", e.getMessage());
            return null;
        }
    }
}
