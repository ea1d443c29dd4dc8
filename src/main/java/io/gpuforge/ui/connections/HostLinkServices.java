package io.gpuforge.ui.connections;

import io.gpuforge.app.AppContext;
import io.gpuforge.app.connections.ConnectionsService;
import io.gpuforge.app.connections.HostLinks;
import io.gpuforge.app.monitor.EventLog;
import java.util.Objects;

/**
 * What "Link to a host…" works through, and nothing else of the application: the saved connections (the SSH hosts
 * to choose from), the links, and the event log a change is written to. Built by the shell (the composition root).
 */
public record HostLinkServices(ConnectionsService connections, HostLinks hostLinks, EventLog events) {

    public HostLinkServices {
        Objects.requireNonNull(connections);
        Objects.requireNonNull(hostLinks);
        Objects.requireNonNull(events);
    }

    /** Taken from the application's services: by the composition root, once. */
    public static HostLinkServices of(AppContext app) {
        return new HostLinkServices(app.connections(), app.hostLinks(), app.events());
    }
}
