package io.gpuforge.ui.iommu;

import io.gpuforge.domain.pci.Isolation;
import io.gpuforge.domain.pci.PciDevice;
import io.gpuforge.domain.passthrough.Verdict;
import java.util.List;
import java.util.Optional;

/**
 * What the IOMMU view shows, computed in one go from a host's facts: the state line and the groups with their
 * devices (GPU groups first), each coloured by the isolation of the GPU it belongs to, with the VM a device is
 * assigned to and each GPU's verdict. Immutable; the view only renders it.
 */
public record IommuTable(String state, List<Group> groups) {

    public IommuTable {
        groups = List.copyOf(groups);
    }

    /** A group row: its number, the summary ("GPU, isolated", "3 devices"), whether it starts unfolded. */
    public record Group(int id, String summary, Optional<Isolation> isolation, boolean expanded, List<Device> devices) {
        public Group {
            devices = List.copyOf(devices);
        }

        /** Whether a GPU is in this group. */
        public boolean gpu() {
            return isolation.isPresent();
        }
    }

    /** A GPU's verdict as a badge: its kind, the text on it and the reasons behind it (for the tooltip). */
    public record Badge(Verdict.Kind kind, String text, String reasons) {
    }

    /**
     * A device row: the device, the isolation of the GPU whose group it is in, the VM it is assigned to (when the
     * source says), and for a GPU its verdict.
     */
    public record Device(PciDevice device, Optional<Isolation> isolation, Optional<String> vm, Optional<Badge> verdict) {

        public Device(PciDevice device, Optional<Isolation> isolation) {
            this(device, isolation, Optional.empty(), Optional.empty());
        }

        public String address() {
            return device.address().toString();
        }

        public String classCode() {
            return device.classCode() == null ? "" : device.classCode();
        }

        public String ids() {
            return device.vendorId() == null ? "" : device.vendorId() + ":" + device.deviceId();
        }

        public String name() {
            return device.name().orElse("");
        }

        public String driver() {
            return device.driver().orElse("");
        }

        /** Bound to vfio-pci: ready for a VM (highlighted). */
        public boolean vfio() {
            return device.driver().map("vfio-pci"::equals).orElse(false);
        }
    }

    /** The style class of an isolation: green, amber, red rows. */
    public static String styleOf(Isolation i) {
        switch (i) {
            case ISOLATED:
                return "iso-isolated";
            case SHARES_WITH_BRIDGES:
                return "iso-bridges";
            default:
                return "iso-shared";
        }
    }

    /** The badge style of a verdict: green, amber, red. */
    public static String styleOf(Verdict.Kind k) {
        switch (k) {
            case READY:
                return "badge-ok";
            case NEEDS_HOST_SETUP:
                return "badge-warn";
            default:
                return "badge-danger";
        }
    }
}
