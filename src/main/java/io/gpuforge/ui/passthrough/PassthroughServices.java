package io.gpuforge.ui.passthrough;

import io.gpuforge.app.AppContext;
import io.gpuforge.app.connections.ConnectionsService;
import io.gpuforge.app.host.HostService;
import io.gpuforge.app.passthrough.PassthroughService;
import io.gpuforge.app.backends.PciMappings;
import io.gpuforge.app.session.Sessions;
import java.util.Objects;

/**
 * What the passthrough windows work through, and nothing else of the application: the planner and its journal, the
 * hosts' readings, the hypervisor sessions, the saved connections, Proxmox's PCI mappings. Built by the shell (the
 * composition root) and handed to the windows it opens, and to the features that open them.
 */
public record PassthroughServices(PassthroughService passthrough, HostService hosts, Sessions sessions,
                                  ConnectionsService connections, PciMappings mappings) {

    public PassthroughServices {
        Objects.requireNonNull(passthrough);
        Objects.requireNonNull(hosts);
        Objects.requireNonNull(sessions);
        Objects.requireNonNull(connections);
        Objects.requireNonNull(mappings);
    }

    /** Taken from the application's services: by the composition root, once. */
    public static PassthroughServices of(AppContext app) {
        return new PassthroughServices(app.passthrough(), app.hosts(), app.sessions(), app.connections(),
                app.pciMappings());
    }
}
