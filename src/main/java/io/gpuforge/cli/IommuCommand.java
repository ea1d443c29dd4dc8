package io.gpuforge.cli;

import io.gpuforge.app.ConnectionSession;
import io.gpuforge.domain.BackendException;
import io.gpuforge.domain.GpuPlacement;
import io.gpuforge.domain.HostException;
import io.gpuforge.domain.IommuGroup;
import io.gpuforge.domain.PciAddress;
import io.gpuforge.domain.PciDevice;
import java.io.IOException;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code gpuforge iommu}: IOMMU groups, their devices and drivers, and how isolated each GPU is. */
@Command(name = "iommu", mixinStandardHelpOptions = true,
        description = "List IOMMU groups with their devices and drivers, and how isolated each GPU is.")
final class IommuCommand implements Callable<Integer> {

    @Mixin
    HostSource source = new HostSource();

    @Mixin
    PveOptions pve = new PveOptions();

    @Option(names = "--node", paramLabel = "NODE", description = "With --pve: the node whose devices to list.")
    String node;

    @Option(names = "--libvirt", paramLabel = "URI", description = "A libvirt connection (qemu:///system, qemu+ssh://…).")
    String libvirt;

    @Option(names = "--verbose", description = "With --listing: also show the lines skipped as not part of the listing.")
    boolean verbose;

    @Mixin
    JsonOption json = new JsonOption();

    private final CliServices services;

    IommuCommand(CliServices services) {
        this.services = services;
    }

    @Override
    public Integer call() throws IOException {
        if (pve.present() && node == null) {
            services.output().error("gpuforge iommu: --pve needs --node NODE");
            return 2;
        }
        LoadedHost loaded;
        try {
            loaded = pve.present() ? pve() : libvirt != null ? HypervisorSource.load(services, libvirt)
                    : LoadedHost.of(source.read(services));
        } catch (HostException | BackendException | IllegalArgumentException e) {
            services.output().error("gpuforge iommu: " + e.getMessage());
            return 1;
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

    private LoadedHost pve() throws BackendException, IOException {
        try (ConnectionSession s = pve.session(services)) {
            return HypervisorSource.pve(s, pve.url, node);
        }
    }

    private static String line(PciDevice d) {
        return d.address() + " [" + (d.classCode() == null ? "????" : d.classCode()) + "] "
                + (d.vendorId() == null ? "????:????" : d.vendorId() + ":" + d.deviceId()) + " "
                + d.name().orElse("") + d.driver().map(x -> "  (driver: " + x + ")").orElse("");
    }
}
