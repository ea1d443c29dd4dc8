package io.gpuforge.app.host;

import io.gpuforge.domain.connections.ConnectionInfo;
import io.gpuforge.domain.host.HostException;
import io.gpuforge.domain.host.HostFacts;
import io.gpuforge.domain.host.HostSummary;
import io.gpuforge.domain.pci.ListingReport;
import io.gpuforge.host.probe.HostProbe;
import io.gpuforge.host.probe.HostSummaryReader;
import io.gpuforge.host.listing.ListingParser;
import io.gpuforge.host.ProbeException;
import io.gpuforge.host.snapshot.Snapshot;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Facts about hosts, for the window and the CLI: this computer's summary, and every passthrough-relevant fact of a
 * host in one probe, whatever the target (this computer, SSH, a saved SSH host, a node's linked host, a sysroot, a
 * snapshot archive, a pasted listing). Blocking: background threads only.
 */
public final class HostService {

    private final HostAccess access;

    public HostService(HostAccess access) {
        this.access = access;
    }

    /** Whether a node's host is known (linked, or the Demo lab's simulated host), so its GPUs can be checked. */
    public boolean hasHost(ConnectionInfo c, String node) {
        return access.hasHost(c, node);
    }

    public HostSummary thisComputer() {
        return access.localRoot().map(p -> new HostSummaryReader(p).read()).orElseGet(HostSummaryReader::thisComputer);
    }

    /** The summary of this computer, or of a copy of a host's {@code /}. */
    public HostSummary summary(HostTarget target) throws HostException {
        if (target instanceof HostTarget.Sysroot) {
            return new HostSummaryReader(((HostTarget.Sysroot) target).dir()).read();
        }
        if (target instanceof HostTarget.ThisComputer) {
            return thisComputer();
        }
        return read(target, (h, t, f) -> false).facts().summary();
    }

    /** Everything passthrough needs about this computer (Linux; elsewhere an error that says so). */
    public HostFacts probeThisComputer() throws HostException {
        if (access.localRoot().isEmpty() && OsFamily.current() != OsFamily.LINUX) {
            throw new HostException("IOMMU groups can be read on Linux hosts only; this computer runs "
                    + System.getProperty("os.name"));
        }
        return new HostProbe().probeLocal(access.localRoot());
    }

    /** Probes a saved SSH host; unknown host keys go to {@code prompt}, changed ones are refused. */
    public HostFacts probe(ConnectionInfo c, HostKeyPrompt prompt) throws HostException {
        return read(new HostTarget.Saved(c), prompt).facts();
    }

    /** The facts of any target; for a listing also what was skipped and where it is partial. */
    public HostReading read(HostTarget target, HostKeyPrompt prompt) throws HostException {
        if (target instanceof HostTarget.Listing) {
            HostTarget.Listing l = (HostTarget.Listing) target;
            ListingReport r = ListingParser.read(l.text());
            return new HostReading(HostFacts.fromListing(target.describe(), r.inventory()), Optional.of(r));
        }
        if (target instanceof HostTarget.Snapshot) {
            Path archive = ((HostTarget.Snapshot) target).archive();
            Path dir = Snapshot.unpack(archive);
            try {
                return new HostReading(new HostProbe().probeLocal(Optional.of(dir)).withSource(target.describe(), List.of()),
                        Optional.empty());
            } finally {
                Snapshot.deleteTree(dir);
            }
        }
        if (target instanceof HostTarget.Sysroot) {
            return new HostReading(new HostProbe().probeLocal(Optional.of(((HostTarget.Sysroot) target).dir())),
                    Optional.empty());
        }
        if (target instanceof HostTarget.ThisComputer) {
            return new HostReading(probeThisComputer(), Optional.empty());
        }
        try (HostAccess.Opened h = access.open(target, prompt)) {
            return new HostReading(probe(h), Optional.empty());
        }
    }

    /**
     * A hypervisor's PCI listing of a node with the drivers in use filled in from the node's host (a linked SSH host,
     * the Demo lab's simulated host), which Proxmox VE's listing does not carry: what the IOMMU views and the fleet
     * show alike. Without a host the listing is returned as it is (drivers unknown, not guessed).
     *
     * @throws HostException the node has a host and it cannot be read
     */
    public io.gpuforge.domain.pci.PciInventory withDrivers(ConnectionInfo c, String node,
                                                           io.gpuforge.domain.pci.PciInventory pci,
                                                           HostKeyPrompt prompt) throws HostException {
        if (pci.devices().stream().allMatch(d -> d.driver().isPresent()) || !hasHost(c, node)) {
            return pci;
        }
        io.gpuforge.domain.pci.PciInventory host = read(new HostTarget.Linked(c, node), prompt).facts().pci();
        return new io.gpuforge.domain.pci.PciInventory(pci.devices().stream().map(d -> d.driver().isPresent() ? d
                : d.withDriver(host.device(d.address()).flatMap(io.gpuforge.domain.pci.PciDevice::driver))).toList(),
                pci.groups());
    }

    /** The facts of an open host (a sysroot is read on this machine). */
    public HostFacts probe(HostAccess.Opened h) throws ProbeException {
        return h.sysroot().isPresent() ? new HostProbe().probeLocal(h.sysroot().map(Path::of))
                : new HostProbe().probe(h.shell(), h.sudo());
    }

    /** A support snapshot of a live host: its relevant files as a sysroot archive. Returns the host it came from. */
    public String snapshot(HostTarget target, Path archive, HostKeyPrompt prompt) throws HostException {
        if (target instanceof HostTarget.Sysroot || !target.changeable()) {
            throw new HostException("take a snapshot of a live host (this computer or SSH), not of " + target.describe());
        }
        try (HostAccess.Opened h = access.open(target, prompt)) {
            if (h.sysroot().isPresent()) {
                throw new HostException("take a snapshot of a live host (this computer or SSH), not of a sysroot");
            }
            Snapshot.capture(h.shell(), h.sudo(), archive);
            return h.describe();
        }
    }
}
