package io.gpuforge.host.probe;

import io.gpuforge.host.ProbeStream;

import io.gpuforge.domain.host.HostFacts;
import io.gpuforge.domain.pci.IommuState;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Whether the IOMMU is on, and why not: populated groups mean active; the ACPI tables tell a firmware that
 * has VT-d (DMAR) or AMD-Vi (IVRS) switched off from a kernel that does not use it.
 */
public final class IommuReader {

    /** What the probe shows of the IOMMU. */
    record Iommu(IommuState state, HostFacts.IommuReason reason, Optional<Boolean> acpiDmar,
                 Optional<Boolean> acpiIvrs, int groups) {
    }

    private final ProbeStream s;
    private final Consumer<String> unknowns;

    IommuReader(ProbeStream s, Consumer<String> unknowns) {
        this.s = s;
        this.unknowns = unknowns;
    }

    Iommu read() {
        int groups = s.groups.size();
        boolean groupsDir = s.exists.contains("/sys/kernel/iommu_groups");
        IommuState state = groups > 0 ? IommuState.ENABLED
                : groupsDir || !s.devices.isEmpty() ? IommuState.DISABLED : IommuState.UNKNOWN;
        boolean tables = s.exists.contains("/sys/firmware/acpi/tables");
        Optional<Boolean> dmar = tables ? Optional.of(s.exists.contains("/sys/firmware/acpi/tables/DMAR")) : Optional.empty();
        Optional<Boolean> ivrs = tables ? Optional.of(s.exists.contains("/sys/firmware/acpi/tables/IVRS")) : Optional.empty();
        if (!tables) {
            unknowns.accept("ACPI tables (DMAR/IVRS): /sys/firmware/acpi/tables not readable");
        }
        HostFacts.IommuReason reason;
        if (groups > 0) {
            reason = HostFacts.IommuReason.ACTIVE;
        } else if (tables && !dmar.orElse(false) && !ivrs.orElse(false)) {
            reason = HostFacts.IommuReason.FIRMWARE;
        } else if (dmar.orElse(false) || ivrs.orElse(false)) {
            reason = HostFacts.IommuReason.KERNEL;
        } else {
            reason = HostFacts.IommuReason.UNKNOWN;
        }
        return new Iommu(state, reason, dmar, ivrs, groups);
    }
}
