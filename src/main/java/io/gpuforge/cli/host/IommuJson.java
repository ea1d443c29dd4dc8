package io.gpuforge.cli.host;

import io.gpuforge.domain.pci.GpuPlacement;
import io.gpuforge.domain.pci.IommuGroup;
import io.gpuforge.domain.pci.IommuState;
import io.gpuforge.domain.pci.PciAddress;
import io.gpuforge.domain.pci.PciDevice;
import io.gpuforge.domain.pci.PciInventory;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import io.gpuforge.cli.common.ListingInput;
import io.gpuforge.cli.common.LoadedHost;

/**
 * The {@code gpuforge iommu --json} document, a contract other tools read:
 * {@code {source, iommu, groups:[{group, devices:[{address, vendor, device, class, name, driver}]}],
 * gpus:[{address, group, functions, isolation, shared_with, group_fully_shown}], partial, gaps:[{line, reason}],
 * groups_not_fully_shown, skipped_lines}} and, with {@code --verbose}, {@code skipped:[{line, text}]}. For a
 * live source nothing is partial or skipped.
 */
final class IommuJson {

    private IommuJson() {
    }

    /** The document of what a host source gave, with what a listing skipped and where it is partial. */
    static Map<String, Object> of(LoadedHost h, boolean verbose) {
        Map<String, Object> root = of(h.source(), h.iommu(), h.pci(), ListingInput.groupsNotFullyShown(h));
        ListingInput.json(root, h, verbose);
        return root;
    }

    static Map<String, Object> of(String source, IommuState state, PciInventory inv) {
        return of(source, state, inv, Set.of());
    }

    private static Map<String, Object> of(String source, IommuState state, PciInventory inv, Set<Integer> open) {
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("source", source);
        root.put("iommu", state.json());
        List<Object> groups = new ArrayList<>();
        for (IommuGroup g : inv.groups()) {
            Map<String, Object> jg = new LinkedHashMap<>();
            jg.put("group", g.id());
            List<Object> devices = new ArrayList<>();
            for (PciAddress a : g.members()) {
                inv.device(a).ifPresent(d -> devices.add(device(d)));
            }
            jg.put("devices", devices);
            groups.add(jg);
        }
        root.put("groups", groups);
        List<Object> gpus = new ArrayList<>();
        for (GpuPlacement p : inv.gpus()) {
            Map<String, Object> jp = new LinkedHashMap<>();
            jp.put("address", p.address().toString());
            jp.put("group", p.group());
            jp.put("functions", p.functions().stream().map(PciAddress::toString).toList());
            jp.put("isolation", p.isolation().json());
            jp.put("shared_with", p.sharedWith().stream().map(PciAddress::toString).toList());
            jp.put("group_fully_shown", !open.contains(p.group()));
            gpus.add(jp);
        }
        root.put("gpus", gpus);
        return root;
    }

    static Map<String, Object> device(PciDevice d) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("address", d.address().toString());
        m.put("vendor", d.vendorId());
        m.put("device", d.deviceId());
        m.put("class", d.classCode());
        m.put("name", d.name().orElse(null));
        m.put("driver", d.driver().orElse(null));
        return m;
    }
}
