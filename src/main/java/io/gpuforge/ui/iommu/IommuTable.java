package io.gpuforge.ui.iommu;

import io.gpuforge.domain.Isolation;
import io.gpuforge.domain.PciDevice;
import java.util.List;
import java.util.Optional;

/**
 * What the IOMMU view shows, computed in one go from a host's facts: the state line and the groups with their
 * devices, each coloured by the isolation of the GPU it belongs to. Immutable; the view only renders it.
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
    }

    /** A device row: the device and the isolation of the GPU whose group it is in. */
    public record Device(PciDevice device, Optional<Isolation> isolation) {

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
}
