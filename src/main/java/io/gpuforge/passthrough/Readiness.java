package io.gpuforge.passthrough;

import io.gpuforge.domain.passthrough.PassthroughOverrides;
import io.gpuforge.domain.passthrough.ReadinessReport;
import io.gpuforge.domain.passthrough.Verdict;
import io.gpuforge.domain.passthrough.Coverage;
import io.gpuforge.domain.passthrough.Check;
import io.gpuforge.domain.pci.GpuPlacement;
import io.gpuforge.domain.host.HostFacts;
import io.gpuforge.domain.pci.IommuState;
import io.gpuforge.domain.pci.PciAddress;
import io.gpuforge.domain.pci.PciDevice;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The readiness checks for GPU passthrough on a host, optionally for one device: each pass, warn, fail or
 * unknown, with the fix; and the device's verdict. A check whose facts are missing (a listing, a host read
 * without root, a hypervisor's view) is unknown, never pass. Pure logic over {@link HostFacts}; the device
 * checks are in {@link DeviceChecks}.
 */
public final class Readiness {


    private Readiness() {
    }

    /** The checks of facts that cover the whole host (a live host or a hypervisor). */
    public static ReadinessReport evaluate(HostFacts f, Optional<PciAddress> device, PassthroughOverrides o) {
        return evaluate(f, device, o, Coverage.wholeHost());
    }

    /** The checks, knowing how much of the host's PCI topology the facts show. */
    public static ReadinessReport evaluate(HostFacts f, Optional<PciAddress> device, PassthroughOverrides o, Coverage c) {
        List<Check> checks = hostChecks(f);
        if (device.isEmpty()) {
            return new ReadinessReport(checks, Optional.empty());
        }
        Optional<PciDevice> dev = f.pci().device(device.get());
        if (dev.isEmpty()) {
            checks.add(c.partial()
                    ? Check.of("group.isolation", Check.Status.UNKNOWN, "check.device.notshown", device.get().toString())
                    : Check.of("group.isolation", Check.Status.FAIL, "check.device.missing", device.get().toString()));
            return new ReadinessReport(checks, Optional.of(verdict(checks)));
        }
        List<PciAddress> functions = slotFunctions(f, device.get());
        Optional<GpuPlacement> placement = f.pci().gpus().stream().filter(p -> p.functions().contains(device.get()))
                .findFirst();
        checks.add(DeviceChecks.isolation(f, dev.get(), placement, o, c));
        checks.add(DeviceChecks.hostCritical(f, dev.get(), o, c));
        checks.add(DeviceChecks.binding(f, functions));
        checks.add(DeviceChecks.reset(f, dev.get()));
        checks.add(DeviceChecks.bars(dev.get()));
        checks.add(DeviceChecks.power(dev.get()));
        return new ReadinessReport(checks, Optional.of(verdict(checks)));
    }

    /** Every function of the device's slot (GPU + audio + USB-C…), in the device's group or not. */
    static List<PciAddress> slotFunctions(HostFacts f, PciAddress a) {
        return f.pci().devices().stream().map(PciDevice::address).filter(x -> x.sameSlot(a)).collect(Collectors.toList());
    }

    private static List<Check> hostChecks(HostFacts f) {
        List<Check> checks = new ArrayList<>();
        boolean intel = f.summary().cpuVendor().map("Intel"::equals).orElse(false);
        boolean amd = f.summary().cpuVendor().map("AMD"::equals).orElse(false);
        checks.add(firmware(f, intel, amd));
        checks.add(kernel(f, KernelArguments.vtd(f)));
        checks.add(f.interruptRemapping().map(on -> on
                ? Check.of("iommu.interrupt-remapping", Check.Status.PASS, "check.irqremap.pass")
                : Check.of("iommu.interrupt-remapping", Check.Status.WARN, "check.irqremap.off"))
                .orElse(Check.of("iommu.interrupt-remapping", Check.Status.UNKNOWN, "check.irqremap.unknown")));
        checks.add(modules(f));
        checks.add(f.cmdline().isEmpty() ? Check.of("acs.override", Check.Status.UNKNOWN, "check.acs.unknown")
                : f.cmdline().get().contains("pcie_acs_override")
                ? Check.of("acs.override", Check.Status.WARN, "check.acs.inuse")
                : Check.of("acs.override", Check.Status.PASS, "check.acs.none"));
        checks.add(Check.of("vm.machine", Check.Status.UNKNOWN, "check.vm.none"));
        return checks;
    }

    private static Check firmware(HostFacts f, boolean intel, boolean amd) {
        boolean table = f.acpiDmar().orElse(false) || f.acpiIvrs().orElse(false);
        if (f.iommu() == IommuState.ENABLED) {
            // populated groups need an IOMMU from the firmware; say so when the tables themselves were not seen
            return table ? Check.of("iommu.firmware", Check.Status.PASS, "check.firmware.pass")
                    : Check.of("iommu.firmware", Check.Status.PASS, "check.firmware.inferred",
                            String.valueOf(f.pci().groups().size()));
        }
        if (f.acpiDmar().isEmpty() && f.acpiIvrs().isEmpty()) {
            return Check.of("iommu.firmware", Check.Status.UNKNOWN, "check.firmware.unknown");
        }
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
        String cmdline = f.cmdline().orElse("");
        boolean onCmdline = cmdline.contains("vfio-pci.ids") || cmdline.contains("vfio_pci.ids");
        boolean configured = f.modprobe().modulesLoaded().contains("vfio_pci") || f.loadedModules().contains("vfio_pci")
                || onCmdline;
        // no configuration file was read: what is known comes from the devices alone (a listing, a hypervisor)
        boolean configRead = !f.files().isEmpty();
        String holders = f.pci().devices().stream().filter(d -> d.driver().equals(Optional.of("vfio-pci")))
                .map(d -> d.address().toString()).collect(Collectors.joining(", "));
        if (configured) {
            return !configRead && !onCmdline && !holders.isEmpty()
                    ? Check.of("modules.vfio", Check.Status.PASS, "check.modules.inferred", holders)
                    : Check.of("modules.vfio", Check.Status.PASS, "check.modules.pass");
        }
        return configRead ? Check.of("modules.vfio", Check.Status.WARN, "check.modules.missing")
                : Check.of("modules.vfio", Check.Status.UNKNOWN, "check.modules.unknown");
    }

    /**
     * Blocked by a failed firmware, isolation or host-critical check; otherwise host setup is needed while
     * the kernel, modules or binding do not pass, or while the firmware, isolation or host-critical check
     * is unknown (what cannot be confirmed is still to be done or looked at); else ready.
     */
    static Verdict verdict(List<Check> checks) {
        List<String> blocked = new ArrayList<>();
        List<String> setup = new ArrayList<>();
        for (Check c : checks) {
            switch (c.id()) {
                case "iommu.firmware":
                case "group.isolation":
                case "group.host-critical":
                    if (c.status() == Check.Status.FAIL) {
                        blocked.add(c.id());
                    } else if (c.status() == Check.Status.UNKNOWN) {
                        setup.add(c.id());
                    }
                    break;
                case "iommu.kernel":
                case "driver.binding":
                case "modules.vfio":
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
