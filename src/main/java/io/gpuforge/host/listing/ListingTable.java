package io.gpuforge.host.listing;

import io.gpuforge.domain.pci.PciAddress;
import io.gpuforge.domain.pci.PciDevice;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A table with an IOMMU group column and an address column, found by its header row: {@code pvesh get
 * /nodes/NODE/hardware/pci} (box drawing; class, device, id, iommugroup, vendor, device_name, … vendor_name)
 * or a Markdown table. Rows may be cut on the right, as posts crop them.
 */
public final class ListingTable {

    private static final Pattern SEPARATOR = Pattern.compile("\\s*[│|┃]\\s*");
    private static final Pattern EDGES = Pattern.compile("^\\s*[│|┃]|[│|┃]\\s*$");
    private static final Pattern HEX_ID = Pattern.compile("^(?:0x)?[0-9a-fA-F]{4}$");
    private static final Pattern HEX_CLASS = Pattern.compile("^(?:0x)?[0-9a-fA-F]{4}(?:[0-9a-fA-F]{2})?$");

    private final int group;
    private final int address;
    private final int cls;
    private final int vendor;
    private final int device;
    private final int name;
    private final int vendorName;

    private ListingTable(List<String> header) {
        group = index(header, "iommugroup", "iommu group", "iommu_group", "iommu", "group");
        address = index(header, "id", "address", "slot", "bdf", "pci address");
        cls = index(header, "class");
        vendor = index(header, "vendor");
        device = index(header, "device");
        name = index(header, "device_name", "name", "description");
        vendorName = index(header, "vendor_name");
    }

    /** The table a header row starts, if the row names a group and an address column. */
    static Optional<ListingTable> header(String text) {
        List<String> cells = cells(text);
        if (cells.size() < 2) {
            return Optional.empty();
        }
        ListingTable t = new ListingTable(cells);
        return t.group >= 0 && t.address >= 0 ? Optional.of(t) : Optional.empty();
    }

    /** A device row: the device and its group (null for none, -1 in pvesh), or empty for any other line. */
    Optional<Row> row(String text) {
        List<String> c = cells(text);
        String a = cell(c, address);
        if (!PciAddress.looksLike(a)) {
            return Optional.empty();
        }
        String g = cell(c, group);
        Integer groupId = g.matches("\\d+") ? Integer.valueOf(g) : null;
        String v = hex(cell(c, vendor), HEX_ID);
        String dev = cell(c, device);
        String d = hex(dev, HEX_ID);
        String k = cell(c, cls);
        String classCode = HEX_CLASS.matcher(k).matches() ? PciDevice.hex4(k, "class")
                : PciClassNames.code(k).orElse(null);
        String n = cell(c, name).isEmpty() && d == null ? dev : cell(c, name);
        String vn = cell(c, vendorName);
        String full = (vn.isEmpty() || n.isEmpty() ? n : vn + " " + n).strip();
        return Optional.of(new Row(ListingDevice.of(PciAddress.parse(a), v, d, classCode,
                full.isEmpty() ? Optional.empty() : Optional.of(full)), groupId));
    }

    record Row(ListingDevice device, Integer group) {
    }

    private static List<String> cells(String text) {
        String t = EDGES.matcher(text.strip()).replaceAll("");
        if (!SEPARATOR.matcher(t).find()) {
            return List.of();
        }
        List<String> out = new ArrayList<>();
        for (String s : SEPARATOR.split(t, -1)) {
            out.add(s.strip());
        }
        return out;
    }

    private static int index(List<String> header, String... names) {
        for (String n : names) {
            for (int i = 0; i < header.size(); i++) {
                if (header.get(i).toLowerCase(Locale.ROOT).equals(n)) {
                    return i;
                }
            }
        }
        return -1;
    }

    private static String cell(List<String> cells, int i) {
        return i >= 0 && i < cells.size() ? cells.get(i) : "";
    }

    private static String hex(String s, Pattern p) {
        return p.matcher(s).matches() ? PciDevice.hex4(s, "id") : null;
    }
}
