package io.gpuforge.cli.host;

import io.gpuforge.app.AppContext;
import io.gpuforge.app.vmcreate.VmProvisioning;
import io.gpuforge.cli.common.CliCommand;
import io.gpuforge.domain.BackendException;
import io.gpuforge.domain.pci.GpuPlacement;
import io.gpuforge.domain.host.HostException;
import io.gpuforge.domain.pci.IommuGroup;
import io.gpuforge.domain.pci.NodePci;
import io.gpuforge.domain.pci.PciAddress;
import io.gpuforge.domain.pci.PciDevice;
import io.gpuforge.domain.pci.PciInventory;
import java.io.IOException;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import io.gpuforge.cli.common.CliOutput;
import io.gpuforge.cli.common.CliServices;
import io.gpuforge.cli.common.HostSource;
import io.gpuforge.cli.common.HypervisorTarget;
import io.gpuforge.cli.common.ListingInput;
import io.gpuforge.cli.common.LoadedHost;

/** {@code gpuforge iommu}: IOMMU groups, their devices and drivers, and how isolated each GPU is. */
@Command(name = "iommu", mixinStandardHelpOptions = true,
        description = "List IOMMU groups with their devices and drivers, and how isolated each GPU is.")
public final class IommuCommand extends CliCommand {
    @Mixin
    HostSource source = new HostSource();

    /** A hypervisor's node instead of a host: its devices and groups as the hypervisor reports them. */
    @Mixin
    HypervisorTarget hypervisor = new HypervisorTarget();

    @Option(names = "--verbose", description = "With --listing: also show the lines skipped as not part of the listing.")
    boolean verbose;

    IommuCommand(CliServices services) {
        super(services);
    }

    @Override
    public Integer call() throws IOException {
        LoadedHost loaded;
        try {
            loaded = hypervisor.present() ? hypervisor() : LoadedHost.of(source.read(services));
        } catch (HostException | BackendException | IllegalArgumentException e) {
            return failed("iommu", e);
        }
        if (json.enabled()) {
            services.output().json(IommuJson.of(loaded, verbose));
            return 0;
        }
        CliOutput o = services.output();
        o.line("Source: " + loaded.source() + "   IOMMU: " + loaded.iommu().json()
                + loaded.facts().map(f -> " (" + f.iommuReason().name().toLowerCase(Locale.ROOT) + ")").orElse(""));
        ListingInput.notes(loaded, verbose).forEach(o::line);
        Set<Integer> open = ListingInput.groupsNotFullyShown(loaded);
        for (IommuGroup g : loaded.pci().groups()) {
            o.line("IOMMU group " + g.id() + ":");
            for (PciAddress a : g.members()) {
                loaded.pci().device(a).ifPresent(d -> o.line("  " + line(d)));
            }
        }
        if (loaded.pci().groups().isEmpty()) {
            o.line("No IOMMU groups.");
        }
        for (GpuPlacement p : loaded.pci().gpus()) {
            o.line("GPU " + p.address() + " in group " + p.group() + ": " + p.isolation().json()
                    + (p.sharedWith().isEmpty() ? "" : " with " + p.sharedWith())
                    + (open.contains(p.group()) ? " as far as the listing shows (the group may hold more)" : ""));
        }
        return 0;
    }

    private LoadedHost hypervisor() throws BackendException, IOException {
        try (AppContext ctx = services.openContext()) {
            VmProvisioning.Target t = hypervisor.target(services, ctx);
            NodePci pci = ctx.sessions().of(t.connection()).nodePci(t.node());
            String where = hypervisor.libvirt != null ? "libvirt:" + hypervisor.libvirt
                    : hypervisor.describe() + "/" + t.node();
            return new LoadedHost(where, pci.iommu(), withDrivers(ctx, t, pci.inventory()), Optional.empty());
        }
    }

    /**
     * The drivers in use, which Proxmox VE's PCI listing does not carry: from the node's host (a linked SSH host, the
     * Demo lab's simulated host), as the fleet has them. Without a host, or when it cannot be read, they stay unknown
     * (said in the text, null in JSON) rather than guessed.
     */
    private PciInventory withDrivers(AppContext ctx, VmProvisioning.Target t, PciInventory pci) {
        try {
            return ctx.hosts().withDrivers(t.connection(), t.node(), pci, HostSource::refuseUnknownKey);
        } catch (HostException e) {
            services.output().error("gpuforge iommu: the drivers are not known: " + t.node() + "'s host cannot be"
                    + " read (" + e.getMessage() + ")");
            return pci;
        }
    }

    private static String line(PciDevice d) {
        return d.address() + " [" + (d.classCode() == null ? "????" : d.classCode()) + "] "
                + (d.vendorId() == null ? "????:????" : d.vendorId() + ":" + d.deviceId()) + " "
                + d.name().orElse("") + d.driver().map(x -> "  (driver: " + x + ")").orElse("");
    }
}
