package io.gpuforge.app.backends;

import io.gpuforge.app.passthrough.GpuAssignments;
import io.gpuforge.app.session.Sessions;
import io.gpuforge.domain.BackendException;
import io.gpuforge.domain.connections.ConnectionInfo;
import java.util.List;

/**
 * Proxmox VE's PCI resource mappings that no VM uses any more (a GPU taken back from its last VM leaves its mapping
 * for the next one): listed from every VM's configuration, and removed on request. Blocking.
 */
public final class PciMappings {

    private final Backends backends;
    private final Sessions sessions;
    private final GpuAssignments assignments = new GpuAssignments();

    public PciMappings(Backends backends, Sessions sessions) {
        this.backends = backends;
        this.sessions = sessions;
    }

    /** The connection's GPU mappings no VM uses. */
    public List<GpuAssignments.UnusedMapping> unused(ConnectionInfo c) throws BackendException {
        return assignments.unusedMappings(sessions.of(c));
    }

    /** Removes a mapping, after checking again that no VM uses it (a VM may have got it meanwhile). */
    public void remove(ConnectionInfo c, String id) throws BackendException {
        boolean unused = unused(c).stream().anyMatch(m -> m.id().equals(id));
        if (!unused) {
            throw new BackendException(BackendException.Kind.CONFLICT, "The PCI resource mapping " + id + " is in use"
                    + " by a VM (or no longer there): it was not removed");
        }
        backends.removePciMapping(c, id);
    }
}
