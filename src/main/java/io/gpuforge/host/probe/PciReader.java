package io.gpuforge.host.probe;

import io.gpuforge.host.ProbeStream;

import io.gpuforge.domain.pci.PciAddress;
import io.gpuforge.domain.pci.PciDevice;
import io.gpuforge.domain.pci.PciInventory;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The PCI functions of a probe stream with their IOMMU groups: sysfs attributes, the bound driver and group
 * from the links, names from lspci or the host's pci.ids. A function whose ids cannot be read is skipped and
 * named in the unknowns.
 */
public final class PciReader {

    private static final Pattern QUOTED = Pattern.compile("\"([^\"]*)\"");

    private final ProbeStream s;
    private final Map<String, String> links;
    private final Consumer<String> unknowns;

    PciReader(ProbeStream s, Map<String, String> links, Consumer<String> unknowns) {
        this.s = s;
        this.links = links;
        this.unknowns = unknowns;
    }

    PciInventory inventory() {
        Map<String, String> lspciNames = lspciNames();
        Map<String, String> idNames = pciIdsNames();
        Map<String, Integer> groupOf = new LinkedHashMap<>();
        s.groups.forEach((g, members) -> members.forEach(m -> groupOf.put(m, g)));
        List<PciDevice> out = new ArrayList<>();
        for (Map.Entry<String, Map<String, List<String>>> e : s.devices.entrySet()) {
            String addr = e.getKey();
            Map<String, List<String>> a = e.getValue();
            String prefix = "/sys/bus/pci/devices/" + addr + "/";
            PciAddress address;
            try {
                address = PciAddress.parse(addr);
            } catch (IllegalArgumentException ex) {
                unknowns.accept("PCI entry '" + addr + "' is not an address; skipped");
                continue;
            }
            String vendor = hex(one(a, "vendor"));
            String device = hex(one(a, "device"));
            String cls = one(a, "class");
            if (vendor == null || device == null || cls == null) {
                unknowns.accept("PCI device " + addr + ": vendor, device or class unreadable; skipped");
                continue;
            }
            Optional<String> driver = Optional.ofNullable(links.get(prefix + "driver")).map(SysfsLinks::base);
            Integer group = groupOf.get(addr);
            if (group == null && links.containsKey(prefix + "iommu_group")) {
                group = parseIntOrNull(SysfsLinks.base(links.get(prefix + "iommu_group")));
            }
            Optional<String> name = Optional.ofNullable(lspciNames.get(addr))
                    .or(() -> Optional.ofNullable(idNames.get(vendor + ":" + device)));
            PciDevice.Details details = details(a, prefix);
            try {
                out.add(new PciDevice(address, vendor, device, cls, name, driver,
                        group == null ? OptionalInt.empty() : OptionalInt.of(group), details));
            } catch (IllegalArgumentException ex) {
                unknowns.accept("PCI device " + addr + ": " + ex.getMessage() + "; skipped");
            }
        }
        return PciInventory.fromDevices(out);
    }

    private PciDevice.Details details(Map<String, List<String>> a, String prefix) {
        List<Long> bars = new ArrayList<>();
        Optional<Long> rom = Optional.empty();
        List<String> resources = a.getOrDefault("resource", List.of());
        for (int i = 0; i < resources.size() && i < 7; i++) {
            long size = resourceSize(resources.get(i));
            if (i < 6) {
                bars.add(size);
            } else if (size > 0) {
                rom = Optional.of(size);
            }
        }
        String override = one(a, "driver_override");
        return new PciDevice.Details(
                Optional.ofNullable(hex(one(a, "subsystem_vendor"))), Optional.ofNullable(hex(one(a, "subsystem_device"))),
                override == null || override.equals("(null)") ? Optional.empty() : Optional.of(override),
                Optional.ofNullable(one(a, "boot_vga")).map(v -> v.strip().equals("1")),
                Optional.ofNullable(one(a, "reset_method")).map(v -> List.of(v.strip().split("\\s+"))).orElse(List.of()),
                Optional.ofNullable(one(a, "power_state")), optInt(one(a, "sriov_totalvfs")),
                optInt(one(a, "sriov_numvfs")),
                Optional.ofNullable(links.get(prefix + "physfn")).map(SysfsLinks::base)
                        .filter(PciAddress::looksLike).map(PciAddress::parse),
                bars, a.containsKey("rebar"), rom,
                optInt(one(a, "numa_node")).stream().filter(n -> n >= 0)
                        .mapToObj(OptionalInt::of).findFirst().orElse(OptionalInt.empty()),
                Optional.ofNullable(one(a, "current_link_speed")), optInt(one(a, "current_link_width")),
                Optional.ofNullable(one(a, "d3cold_allowed")).map(v -> v.strip().equals("1")), List.of());
    }

    /** Names the probe looked up in the host's pci.ids: "vvvv:dddd Vendor Device". */
    private Map<String, String> pciIdsNames() {
        Map<String, String> names = new LinkedHashMap<>();
        String out = s.commands.get("pciids");
        if (out != null) {
            for (String line : out.split("\n")) {
                if (line.length() > 10 && line.charAt(9) == ' ') {
                    names.put(line.substring(0, 9), line.substring(10).strip());
                }
            }
        }
        return names;
    }

    /** Names from {@code lspci -Dnnmm}: "Vendor Device" with the bracketed ids removed. */
    private Map<String, String> lspciNames() {
        Map<String, String> names = new LinkedHashMap<>();
        String out = s.commands.get("lspci -Dnnmm");
        if (out == null) {
            return names;
        }
        for (String line : out.split("\n")) {
            String[] parts = line.split(" ", 2);
            if (parts.length < 2) {
                continue;
            }
            Matcher m = QUOTED.matcher(parts[1]);
            List<String> fields = new ArrayList<>();
            while (m.find()) {
                fields.add(m.group(1).replaceAll("\\s*\\[[0-9a-f]{4}\\]$", "").strip());
            }
            if (fields.size() >= 3) {
                names.put(parts[0], (fields.get(1) + " " + fields.get(2)).strip());
            }
        }
        return names;
    }

    /** The size of one line of sysfs {@code resource} ("start end flags"); 0 when unused or unreadable. */
    static long resourceSize(String line) {
        String[] p = line.strip().split("\\s+");
        if (p.length < 2) {
            return 0;
        }
        try {
            long start = Long.parseUnsignedLong(p[0].replace("0x", ""), 16);
            long end = Long.parseUnsignedLong(p[1].replace("0x", ""), 16);
            return (start == 0 && end == 0) || end < start ? 0 : end - start + 1;
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private static String one(Map<String, List<String>> a, String key) {
        List<String> v = a.get(key);
        return v == null || v.isEmpty() ? null : v.get(0).strip();
    }

    private static String hex(String v) {
        if (v == null) {
            return null;
        }
        String h = v.toLowerCase(Locale.ROOT).replace("0x", "");
        return PciDevice.isHex4(h) ? h : null;
    }

    private static OptionalInt optInt(String v) {
        Integer i = v == null ? null : parseIntOrNull(v);
        return i == null ? OptionalInt.empty() : OptionalInt.of(i);
    }

    private static Integer parseIntOrNull(String v) {
        try {
            return Integer.parseInt(v.strip());
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
