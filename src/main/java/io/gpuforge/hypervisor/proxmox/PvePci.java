package io.gpuforge.hypervisor.proxmox;

import com.fasterxml.jackson.databind.JsonNode;
import io.gpuforge.domain.pci.IommuState;
import io.gpuforge.domain.pci.PciAddress;
import io.gpuforge.domain.pci.PciDevice;
import io.gpuforge.domain.pci.PciInventory;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * A node's PCI devices and IOMMU groups as {@code /nodes/{node}/hardware/pci} reports them, asked with an
 * empty {@code pci-class-blacklist} so the bridges in a group are visible. {@code iommugroup} -1 means the
 * IOMMU is off.
 */
public final class PvePci {

    /** The inventory and what the node says about its IOMMU. */
    public record NodePci(PciInventory inventory, IommuState iommu) {
    }

    private PvePci() {
    }

    public static NodePci read(PveClient c, String node) throws PveApiException {
        return from(c.get("/nodes/" + node + "/hardware/pci", Map.of("pci-class-blacklist", "")));
    }

    static NodePci from(JsonNode data) {
        List<PciDevice> devices = new ArrayList<>();
        boolean anyGroup = false;
        boolean anyOff = false;
        for (JsonNode d : data) {
            Optional<String> id = PveValues.text(d, "id");
            if (id.isEmpty() || !PciAddress.looksLike(id.get())) {
                continue;
            }
            long g = PveValues.number(d, "iommugroup").orElse(-1);
            anyGroup |= g >= 0;
            anyOff |= g < 0;
            String name = (PveValues.text(d, "vendor_name").orElse("") + " " + PveValues.text(d, "device_name").orElse("")).strip();
            try {
                devices.add(new PciDevice(PciAddress.parse(id.get()), hex(d, "vendor"), hex(d, "device"),
                        hex(d, "class"), name.isEmpty() ? Optional.empty() : Optional.of(name), Optional.empty(),
                        g >= 0 ? OptionalInt.of((int) g) : OptionalInt.empty(), details(d)));
            } catch (IllegalArgumentException e) {
                // a device with ids we cannot read is left out rather than guessed
            }
        }
        IommuState state = anyGroup ? IommuState.ENABLED : anyOff ? IommuState.DISABLED : IommuState.UNKNOWN;
        return new NodePci(PciInventory.fromDevices(devices), state);
    }

    /** The subsystem ids, which a PCI resource mapping records ({@code subsystem-id}) and PVE checks at VM start. */
    private static PciDevice.Details details(JsonNode d) {
        Optional<String> vendor = PveValues.text(d, "subsystem_vendor").flatMap(PvePci::hex4);
        Optional<String> device = PveValues.text(d, "subsystem_device").flatMap(PvePci::hex4);
        if (vendor.isEmpty() && device.isEmpty()) {
            return PciDevice.Details.NONE;
        }
        PciDevice.Details n = PciDevice.Details.NONE;
        return new PciDevice.Details(vendor, device, n.driverOverride(), n.bootVga(), n.resetMethods(), n.powerState(),
                n.sriovTotalVfs(), n.sriovNumVfs(), n.physicalFunction(), n.barSizes(), n.resizableBar(), n.romSize(),
                n.numaNode(), n.linkSpeed(), n.linkWidth(), n.d3coldAllowed(), n.kernelModules());
    }

    private static Optional<String> hex4(String raw) {
        try {
            return Optional.of(PciDevice.hex4(raw, "subsystem"));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    private static String hex(JsonNode d, String field) {
        return PveValues.text(d, field).map(v -> PciDevice.hex4(v, field.equals("class") ? "class" : field)).orElse(null);
    }
}
