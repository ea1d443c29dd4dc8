package io.gpuforge.passthrough;

import io.gpuforge.domain.GpuPlacement;
import io.gpuforge.domain.HostFacts;
import io.gpuforge.domain.Isolation;
import io.gpuforge.domain.PciAddress;
import io.gpuforge.domain.PciDevice;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The readiness checks for GPU passthrough on a host, optionally for one device: each pass, warn, fail or
 * unknown, with the fix; and the device's verdict. Pure logic over {@link HostFacts}.
 */
public final class Readiness {

    /** Options a user names explicitly to go past a safety rule. */
    public record Overrides(boolean allowSharedGroup, boolean allowHostCritical) {
        public static Overrides none() {
            return new Overrides(false, false);
        }
    }

    public record Report(List<Check> checks, Optional<Verdict> verdict) {
        public Report {
            checks = List.copyOf(checks);
        }

        public Optional<Check> check(String id) {
            return checks.stream().filter(c -> c.id().equals(id)).findFirst();
        }
    }

    /** AMD GPUs known for the reset bug (Polaris, Vega, Navi 10/12/14): vendor-reset helps them. */
    static final Set<String> AMD_RESET_BUG = Set.of("67df", "67ef", "67ff", "6fdf", "67c7", "687f", "6863", "66af",
            "731f", "7360", "7340", "7341", "7347");
    static final long LARGE_BAR = 16L * 1024 * 1024 * 1024;

    private Readiness() {
    }

    public static Report evaluate(HostFacts f, Optional<PciAddress> device, Overrides o) {
        List<Check> checks = new ArrayList<>();
        boolean intel = f.summary().cpuVendor().map("Intel"::equals).orElse(false);
        boolean amd = f.summary().cpuVendor().map("AMD"::equals).orElse(false);
        checks.add(firmware(f, intel, amd));
        checks.add(kernel(f, intel));
        checks.add(f.interruptRemapping().map(on -> on
                ? Check.of("iommu.interrupt-remapping", Check.Status.PASS, "check.irqremap.pass")
                : Check.of("iommu.interrupt-remapping", Check.Status.WARN, "check.irqremap.off"))
                .orElse(Check.of("iommu.interrupt-remapping", Check.Status.UNKNOWN, "check.irqremap.unknown")));
        checks.add(modules(f));
        String cmdline = f.cmdline().orElse("");
        checks.add(cmdline.contains("pcie_acs_override")
                ? Check.of("acs.override", Check.Status.WARN, "check.acs.inuse")
                : Check.of("acs.override", Check.Status.PASS, "check.acs.none"));
        checks.add(Check.of("vm.machine", Check.Status.UNKNOWN, "check.vm.none"));
        if (device.isEmpty()) {
            return new Report(checks, Optional.empty());
        }
        Optional<PciDevice> dev = f.pci().device(device.get());
        if (dev.isEmpty()) {
            checks.add(Check.of("group.isolation", Check.Status.FAIL, "check.device.missing", device.get().toString()));
            return new Report(checks, Optional.of(verdict(checks)));
        }
        List<PciAddress> functions = slotFunctions(f, device.get());
        Optional<GpuPlacement> placement = f.pci().gpus().stream().filter(p -> p.functions().contains(device.get()))
                .findFirst();
        checks.add(isolation(f, dev.get(), placement, o));
        checks.add(hostCritical(f, dev.get(), o));
        checks.add(binding(f, functions));
        checks.add(reset(dev.get()));
        checks.add(bars(dev.get()));
        checks.add(dev.get().details().powerState().filter(p -> p.equalsIgnoreCase("D3cold")).isPresent()
                ? Check.of("power.d3cold", Check.Status.WARN, "check.d3cold.now", device.get().toString())
                : Check.of("power.d3cold", Check.Status.PASS, "check.d3cold.pass"));
        return new Report(checks, Optional.of(verdict(checks)));
    }

    /** Every function of the device's slot (GPU + audio + USB-C…), in the device's group or not. */
    static List<PciAddress> slotFunctions(HostFacts f, PciAddress a) {
        return f.pci().devices().stream().map(PciDevice::address).filter(x -> x.sameSlot(a)).collect(Collectors.toList());
    }

    private static Check firmware(HostFacts f, boolean intel, boolean amd) {
        if (f.iommu() == io.gpuforge.domain.IommuState.ENABLED) {
            return Check.of("iommu.firmware", Check.Status.PASS, "check.firmware.pass");
        }
        if (f.acpiDmar().isEmpty() && f.acpiIvrs().isEmpty()) {
            return Check.of("iommu.firmware", Check.Status.UNKNOWN, "check.firmware.unknown");
        }
        boolean table = f.acpiDmar().orElse(false) || f.acpiIvrs().orElse(false);
        if (table) {
            return Check.of("iommu.firmware", Check.Status.PASS, "check.firmware.pass");
        }
        return Check.of("iommu.firmware", Check.Status.FAIL, intel ? "check.firmware.intel"
                : amd ? "check.firmware.amd" : "check.firmware.other");
    }

    private static Check kernel(HostFacts f, boolean intel) {
        String cmdline = f.cmdline().orElse("");
        if (f.pci().groups().size() > 0) {
            return Check.of("iommu.kernel", Check.Status.PASS, "check.kernel.pass", String.valueOf(f.pci().groups().size()));
        }
        for (String off : new String[] {"intel_iommu=off", "amd_iommu=off", "iommu=off"}) {
            if (cmdline.contains(off)) {
                return Check.of("iommu.kernel", Check.Status.FAIL, "check.kernel.off", off);
            }
        }
        if (f.iommuReason() == HostFacts.IommuReason.KERNEL) {
            return Check.of("iommu.kernel", Check.Status.FAIL, intel ? "check.kernel.intel" : "check.kernel.notused");
        }
        return Check.of("iommu.kernel", Check.Status.UNKNOWN, "check.kernel.unknown");
    }

    private static Check modules(HostFacts f) {
        boolean virqfd = f.modprobe().modulesLoaded().contains("vfio_virqfd");
        if (virqfd && KernelVersion.atLeast(f.summary().kernel().orElse(""), 6, 2)) {
            return Check.of("modules.vfio", Check.Status.WARN, "check.modules.virqfd", f.summary().kernel().orElse(""));
        }
        if (!f.modprobe().problems().isEmpty()) {
            var p = f.modprobe().problems().get(0);
            return Check.of("modules.vfio", Check.Status.WARN, "check.modules.malformed", p.file(), String.valueOf(p.line()),
                    p.text(), p.reason());
        }
        boolean configured = f.modprobe().modulesLoaded().contains("vfio_pci") || f.loadedModules().contains("vfio_pci")
                || f.cmdline().orElse("").contains("vfio-pci.ids") || f.cmdline().orElse("").contains("vfio_pci.ids");
        if (configured) {
            return Check.of("modules.vfio", Check.Status.PASS, "check.modules.pass");
        }
        return f.files().isEmpty() ? Check.of("modules.vfio", Check.Status.UNKNOWN, "check.modules.unknown")
                : Check.of("modules.vfio", Check.Status.WARN, "check.modules.missing");
    }

    private static Check isolation(HostFacts f, PciDevice d, Optional<GpuPlacement> placement, Overrides o) {
        if (d.iommuGroup().isEmpty()) {
            return Check.of("group.isolation", Check.Status.FAIL, "check.isolation.nogroup", d.address().toString());
        }
        Isolation iso = placement.map(GpuPlacement::isolation).orElseGet(() -> {
            var g = f.pci().group(d.iommuGroup().getAsInt()).orElseThrow();
            boolean others = g.members().stream().anyMatch(m -> !m.sameSlot(d.address())
                    && !f.pci().device(m).map(PciDevice::isBridge).orElse(false));
            return others ? Isolation.SHARED : Isolation.ISOLATED;
        });
        String group = String.valueOf(d.iommuGroup().getAsInt());
        switch (iso) {
            case ISOLATED:
                return Check.of("group.isolation", Check.Status.PASS, "check.isolation.alone", group);
            case SHARES_WITH_BRIDGES:
                return Check.of("group.isolation", Check.Status.PASS, "check.isolation.bridges", group);
            default:
                String others = placement.map(p -> p.sharedWith().toString()).orElse("");
                return o.allowSharedGroup()
                        ? Check.of("group.isolation", Check.Status.WARN, "check.isolation.sharedAllowed", group, others)
                        : Check.of("group.isolation", Check.Status.FAIL, "check.isolation.shared", group, others);
        }
    }

    private static Check hostCritical(HostFacts f, PciDevice d, Overrides o) {
        if (d.iommuGroup().isEmpty()) {
            return Check.of("group.host-critical", Check.Status.UNKNOWN, "check.critical.unknown");
        }
        var members = f.pci().group(d.iommuGroup().getAsInt()).map(g -> g.members()).orElse(List.of(d.address()));
        List<String> reasons = new ArrayList<>();
        for (PciAddress m : members) {
            PciDevice x = f.pci().device(m).orElse(null);
            if (x != null && x.details().bootVga().orElse(false) && !x.driver().equals(Optional.of("vfio-pci"))) {
                reasons.add("boot console GPU " + m);
            }
            if (f.managementDevices().contains(m)) {
                reasons.add("management NIC " + m);
            }
            if (f.rootDevices().contains(m)) {
                reasons.add("root file system controller " + m);
            }
        }
        if (reasons.isEmpty()) {
            boolean known = !f.managementDevices().isEmpty() || !f.rootDevices().isEmpty();
            return known ? Check.of("group.host-critical", Check.Status.PASS, "check.critical.pass")
                    : Check.of("group.host-critical", Check.Status.UNKNOWN, "check.critical.unknown");
        }
        return o.allowHostCritical()
                ? Check.of("group.host-critical", Check.Status.WARN, "check.critical.allowed", String.join(", ", reasons))
                : Check.of("group.host-critical", Check.Status.FAIL, "check.critical.fail", String.join(", ", reasons));
    }

    private static Check binding(HostFacts f, List<PciAddress> functions) {
        List<String> held = new ArrayList<>();
        for (PciAddress a : functions) {
            f.pci().device(a).flatMap(PciDevice::driver).filter(d -> !d.equals("vfio-pci"))
                    .ifPresent(d -> held.add(a + " → " + d));
        }
        boolean unknown = functions.stream().allMatch(a -> f.pci().device(a).map(d -> d.driver().isEmpty()
                && d.details().equals(PciDevice.Details.NONE)).orElse(true));
        if (held.isEmpty() && unknown) {
            return Check.of("driver.binding", Check.Status.UNKNOWN, "check.binding.unknown");
        }
        return held.isEmpty() ? Check.of("driver.binding", Check.Status.PASS, "check.binding.vfio")
                : Check.of("driver.binding", Check.Status.WARN, "check.binding.held", String.join(", ", held));
    }

    private static Check reset(PciDevice d) {
        if ("1002".equals(d.vendorId()) && AMD_RESET_BUG.contains(d.deviceId())) {
            return Check.of("reset.support", Check.Status.WARN, "check.reset.amdbug", d.deviceId());
        }
        List<String> methods = d.details().resetMethods();
        if (methods.isEmpty()) {
            return Check.of("reset.support", d.details().equals(PciDevice.Details.NONE) ? Check.Status.UNKNOWN
                    : Check.Status.WARN, d.details().equals(PciDevice.Details.NONE) ? "check.reset.unknown" : "check.reset.none");
        }
        return Check.of("reset.support", Check.Status.PASS, "check.reset.pass", String.join(" ", methods));
    }

    private static Check bars(PciDevice d) {
        long largest = d.details().largestBar();
        if (largest >= LARGE_BAR || d.details().resizableBar()) {
            return Check.of("bar.large", Check.Status.WARN, "check.bar.large", String.valueOf(largest / (1024 * 1024)));
        }
        return Check.of("bar.large", Check.Status.PASS, "check.bar.pass");
    }

    static Verdict verdict(List<Check> checks) {
        List<String> blocked = new ArrayList<>();
        List<String> setup = new ArrayList<>();
        for (Check c : checks) {
            boolean bad = c.status() == Check.Status.FAIL;
            switch (c.id()) {
                case "iommu.firmware":
                case "group.isolation":
                case "group.host-critical":
                    if (bad) {
                        blocked.add(c.id());
                    }
                    break;
                case "iommu.kernel":
                case "driver.binding":
                case "modules.vfio":
                    // a setup that cannot be confirmed is a setup to do
                    if (c.status() != Check.Status.PASS) {
                        setup.add(c.id());
                    }
                    break;
                default:
                    break;
            }
        }
        if (!blocked.isEmpty()) {
            return new Verdict(Verdict.Kind.BLOCKED, blocked);
        }
        return setup.isEmpty() ? new Verdict(Verdict.Kind.READY, List.of()) : new Verdict(Verdict.Kind.NEEDS_HOST_SETUP, setup);
    }
}
