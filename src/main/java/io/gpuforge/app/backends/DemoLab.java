package io.gpuforge.app.backends;

import io.gpuforge.demo.SimHost;
import io.gpuforge.domain.host.HostException;
import java.util.Optional;

/**
 * The Demo lab's simulated hosts, one behind each node of the simulated cluster: what GPUForge reads, edits and
 * reboots when the host-level work of a Demo lab node is asked for, and its reset (the window's "Start afresh…",
 * {@code connection add --demo --reset}). Otherwise for tests and the Demo lab's own switches (make a refresh
 * command fail, keep a host down after its reboot).
 */
public final class DemoLab {

    private final Backends backends;

    public DemoLab(Backends backends) {
        this.backends = backends;
    }

    /**
     * Makes every start of VM {@code vmid} fail as Proxmox VE writes it ({@code log} in its task log, ending in
     * {@code TASK ERROR: error}); a null {@code error} lets it start again.
     */
    public void failStarts(int vmid, java.util.List<String> log, String error) throws io.gpuforge.domain.BackendException {
        backends.demo().cluster().failStarts(vmid, log, error);
    }

    /**
     * Starts the Demo lab afresh, as it was the first time: its VMs, containers, mappings, tasks and its hosts' files.
     * Every process that runs it (the window, a command) sees the fresh lab at its next request.
     */
    public void reset() throws io.gpuforge.domain.BackendException {
        backends.resetDemo();
    }

    /** The simulated host of a node (the Demo lab starts when it does not run yet). */
    public Optional<SimHost> host(String node) throws HostException {
        return backends.demoHost(node);
    }
}
