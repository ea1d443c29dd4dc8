package io.gpuforge.passthrough;

import io.gpuforge.domain.passthrough.PassthroughOverrides;
import io.gpuforge.domain.passthrough.Coverage;
import io.gpuforge.domain.passthrough.Check;
import io.gpuforge.domain.pci.GpuPlacement;
import io.gpuforge.domain.host.HostFacts;
import io.gpuforge.domain.pci.IommuGroup;
import io.gpuforge.domain.pci.IommuState;
import io.gpuforge.domain.pci.Isolation;
import io.gpuforge.domain.pci.PciAddress;
import io.gpuforge.domain.pci.PciDevice;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The checks of one device: its group's isolation and what the host needs in it, the drivers of its
 * functions, reset, BARs and power state. Each asks first whether its facts are there: what a listing, a
 * hypervisor or a host read without root does not show is unknown.
 */
final class DeviceChecks {

    /** AMD GPUs known for the reset bug (Polaris, Vega, Navi 10/12/14): vendor-reset helps them. */
    static final Set<String> AMD_RESET_BUG = Set.of("67df", "67ef", "67ff", "6fdf", "67c7", "687f", "6863", "66af",
            "731f", "7360", "7340", "7341", "7347");
    static final long LARGE_BAR = 16L * 1024 * 1024 * 1024;

    private DeviceChecks() {
    }

    static Check isolation(HostFacts f, PciDevice d, Optional<GpuPlacement> placement, PassthroughOverrides o,
                           Coverage c) {
        String address = d.address().toString();
        if (d.iommuGroup().isEmpty()) {
            // in a listing a device without a group is one whose group was not shown; with the IOMMU off no
            // device has one yet; only with the IOMMU on is a device outside every group left out for good
            if (c.pastedListing()) {
                return Check.of("group.isolation", Check.Status.UNKNOWN, "check.isolation.notshown", address);
            }
            return f.iommu() == IommuState.ENABLED
                    ? Check.of("group.isolation", Check.Status.FAIL, "check.isolation.outside", address)
                    : Check.of("group.isolation", Check.Status.UNKNOWN, "check.isolation.nogroup", address);
        }
        int g = d.iommuGroup().getAsInt();
        Isolation iso = placement.map(GpuPlacement::isolation).orElseGet(() -> {
            IommuGroup group = f.pci().group(g).orElseThrow();
            boolean others = group.members().stream().anyMatch(m -> !m.sameSlot(d.address())
                    && !f.pci().device(m).map(PciDevice::isBridge).orElse(false));
            return others ? Isolation.SHARED : Isolation.ISOLATED;
        });
        String group = String.valueOf(g);
        if (iso == Isolation.SHARED) {
            // more devices in the group cannot make it less shared: this holds for a partial listing too
            String others = placement.map(p -> p.sharedWith().toString()).orElse("");
            return o.allowSharedGroup()
                    ? Check.of("group.isolation", Check.Status.WARN, "check.isolation.sharedAllowed", group, others)
                    : Check.of("group.isolation", Check.Status.FAIL, "check.isolation.shared", group, others);
        }
        if (!c.groupFullyShown(g)) {
            return Check.of("group.isolation", Check.Status.UNKNOWN, "check.isolation.partial", group);
        }
        return iso == Isolation.ISOLATED ? Check.of("group.isolation", Check.Status.PASS, "check.isolation.alone", group)
                : Check.of("group.isolation", Check.Status.PASS, "check.isolation.bridges", group);
    }

    static Check hostCritical(HostFacts f, PciDevice d, PassthroughOverrides o, Coverage c) {
        // without a group (IOMMU off, or not in a listing) at least the card's own functions are known
        List<PciAddress> members = d.iommuGroup().isEmpty() ? Readiness.slotFunctions(f, d.address())
                : f.pci().group(d.iommuGroup().getAsInt()).map(IommuGroup::members).orElse(List.of(d.address()));
        List<String> reasons = new ArrayList<>();
        for (PciAddress m : members) {
            PciDevice x = f.pci().device(m).orElse(null);
            if (x != null && x.details().bootVga().orElse(false) && !onVfio(x)) {
                reasons.add("boot console GPU " + m);
            }
            if (f.managementDevices().contains(m)) {
                reasons.add("management NIC " + m);
            }
            if (f.rootDevices().contains(m)) {
                reasons.add("root file system controller " + m);
            }
        }
        if (!reasons.isEmpty()) {
            return o.allowHostCritical()
                    ? Check.of("group.host-critical", Check.Status.WARN, "check.critical.allowed", String.join(", ", reasons))
                    : Check.of("group.host-critical", Check.Status.FAIL, "check.critical.fail", String.join(", ", reasons));
        }
        if (d.iommuGroup().isEmpty()) {
            return Check.of("group.host-critical", Check.Status.UNKNOWN, "check.critical.unknown");
        }
        int g = d.iommuGroup().getAsInt();
        if (!f.managementDevices().isEmpty() || !f.rootDevices().isEmpty()) {
            return Check.of("group.host-critical", Check.Status.PASS, "check.critical.pass");
        }
        // the host's own devices are unknown: rule out what the group's members cannot be
        boolean noNicOrDisk = c.groupFullyShown(g) && members.stream()
                .allMatch(m -> f.pci().device(m).map(DeviceChecks::neitherNicNorDisk).orElse(false));
        Optional<PciDevice> consoleUnknown = members.stream().map(m -> f.pci().device(m)).flatMap(Optional::stream)
                .filter(x -> "0300".equals(x.classCode()) && x.details().bootVga().isEmpty() && !onVfio(x)).findFirst();
        if (noNicOrDisk && consoleUnknown.isEmpty()) {
            return Check.of("group.host-critical", Check.Status.PASS, "check.critical.classes");
        }
        return noNicOrDisk ? Check.of("group.host-critical", Check.Status.UNKNOWN, "check.critical.console",
                consoleUnknown.get().address().toString())
                : Check.of("group.host-critical", Check.Status.UNKNOWN, "check.critical.unknown");
    }

    /** Display, multimedia (audio) and bridge functions carry neither a NIC nor a disk (nor a USB one). */
    private static boolean neitherNicNorDisk(PciDevice d) {
        String cls = d.classCode();
        return cls != null && (cls.startsWith("03") || cls.startsWith("04") || cls.startsWith("06"));
    }

    private static boolean onVfio(PciDevice d) {
        return d.driver().equals(Optional.of("vfio-pci"));
    }

    static Check binding(HostFacts f, List<PciAddress> functions) {
        List<String> held = new ArrayList<>();
        List<String> unknown = new ArrayList<>();
        for (PciAddress a : functions) {
            Optional<PciDevice> d = f.pci().device(a);
            d.flatMap(PciDevice::driver).filter(x -> !x.equals("vfio-pci")).ifPresent(x -> held.add(a + " → " + x));
            // no driver and nothing else read for it: whether a driver holds it is not known
            if (d.map(x -> x.driver().isEmpty() && x.details().equals(PciDevice.Details.NONE)).orElse(true)) {
                unknown.add(a.toString());
            }
        }
        if (!held.isEmpty()) {
            return Check.of("driver.binding", Check.Status.WARN, "check.binding.held", String.join(", ", held));
        }
        if (unknown.size() == functions.size()) {
            return Check.of("driver.binding", Check.Status.UNKNOWN, "check.binding.unknown");
        }
        return unknown.isEmpty() ? Check.of("driver.binding", Check.Status.PASS, "check.binding.vfio")
                : Check.of("driver.binding", Check.Status.UNKNOWN, "check.binding.someunknown", String.join(", ", unknown));
    }

    static Check reset(HostFacts f, PciDevice d) {
        if ("1002".equals(d.vendorId()) && AMD_RESET_BUG.contains(d.deviceId())) {
            return Check.of("reset.support", Check.Status.WARN, "check.reset.amdbug", d.deviceId());
        }
        List<String> methods = d.details().resetMethods();
        if (!methods.isEmpty()) {
            return Check.of("reset.support", Check.Status.PASS, "check.reset.pass", String.join(" ", methods));
        }
        // sysfs was read for this device (its BARs are known) and, since Linux 5.15, reset_method is there
        // exactly when the device has a reset method; anywhere else its absence says nothing
        boolean sysfsRead = !d.details().barSizes().isEmpty();
        boolean listed = KernelVersion.atLeast(f.summary().kernel().orElse(""), 5, 15);
        return sysfsRead && listed ? Check.of("reset.support", Check.Status.WARN, "check.reset.none")
                : Check.of("reset.support", Check.Status.UNKNOWN, "check.reset.unknown");
    }

    static Check bars(PciDevice d) {
        if (d.details().barSizes().isEmpty() && !d.details().resizableBar()) {
            return Check.of("bar.large", Check.Status.UNKNOWN, "check.bar.unknown", d.address().toString());
        }
        long largest = d.details().largestBar();
        if (largest >= LARGE_BAR || d.details().resizableBar()) {
            return Check.of("bar.large", Check.Status.WARN, "check.bar.large", String.valueOf(largest / (1024 * 1024)));
        }
        return Check.of("bar.large", Check.Status.PASS, "check.bar.pass");
    }

    static Check power(PciDevice d) {
        Optional<String> state = d.details().powerState();
        if (state.isEmpty()) {
            return Check.of("power.d3cold", Check.Status.UNKNOWN, "check.d3cold.unknown", d.address().toString());
        }
        return state.get().strip().equalsIgnoreCase("D3cold")
                ? Check.of("power.d3cold", Check.Status.WARN, "check.d3cold.now", d.address().toString())
                : Check.of("power.d3cold", Check.Status.PASS, "check.d3cold.pass");
    }
}
