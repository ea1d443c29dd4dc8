package io.gpuforge.host.listing;

import io.gpuforge.domain.pci.PciAddress;
import io.gpuforge.domain.pci.PciDevice;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What one listing or lspci line says about a device, as it is being read: the text after the address
 * ({@code Class [cccc]: Name [vvvv:dddd] (rev xx)}, with or without the codes, or the class and name in
 * columns), plus the driver and modules of lspci -nnk detail lines. Mutable while the listing is read.
 */
public final class ListingDevice {

    private static final Pattern CLASS_PART = Pattern.compile("^(.*?)(?:\\s*\\[([0-9a-fA-F]{4})\\])?:\\s*(.*)$");
    private static final Pattern TAIL_REV = Pattern.compile("\\s*\\((?:rev [0-9a-fA-F]+|prog-if [^)]*)\\)\\s*$");
    private static final Pattern TAIL_IDS = Pattern.compile("\\s*\\[([0-9a-fA-F]{4}):([0-9a-fA-F]{4})\\]\\s*$");
    private static final Pattern TAIL_DRIVER = Pattern.compile("\\s+(?:Driver|driver in use)\\s*:\\s*(\\S+)\\s*$");
    private static final Pattern TAIL_ELLIPSIS = Pattern.compile("\\s*(?:\\.{3,}|…)\\s*$");
    private static final Pattern COLUMNS = Pattern.compile("\\s{2,}");

    final PciAddress address;
    String vendor;
    String device;
    String classCode;
    Optional<String> name = Optional.empty();
    Optional<String> driver = Optional.empty();
    List<String> modules = List.of();
    Integer group;
    /** the line ends inside brackets: the poster's copy was cut off there */
    boolean cutOff;
    /** the line says what the device is (a class, or a class and a name) */
    boolean described;

    private ListingDevice(PciAddress address) {
        this.address = address;
    }

    /**
     * Reads the text after an address. {@code vendorId}/{@code deviceId} come from formats that print the
     * ids before the address (null otherwise).
     */
    static ListingDevice describe(PciAddress address, String rest, String vendorId, String deviceId) {
        ListingDevice b = new ListingDevice(address);
        String r = rest == null ? "" : rest.strip();
        if (r.startsWith("->")) {
            r = ""; // a symbolic link's target (ls -l, tree of sysfs)
        }
        Matcher drv = TAIL_DRIVER.matcher(r);
        if (drv.find()) {
            b.driver = Optional.of(drv.group(1));
            r = r.substring(0, drv.start());
        }
        b.cutOff = count(r, '[') > count(r, ']') || count(r, '(') > count(r, ')');
        if (!r.isEmpty()) {
            b.readDescription(r);
        }
        b.vendor = b.vendor == null ? lower(vendorId) : b.vendor;
        b.device = b.device == null ? lower(deviceId) : b.device;
        return b;
    }

    private void readDescription(String r) {
        Matcher c = CLASS_PART.matcher(r);
        String className;
        String rest;
        if (c.matches()) {
            className = c.group(1);
            classCode = c.group(2) != null ? c.group(2).toLowerCase(Locale.ROOT) : null;
            rest = c.group(3);
        } else {
            String[] cols = COLUMNS.split(r, 2);
            if (cols.length < 2 || PciClassNames.code(cols[0]).isEmpty()) {
                return;
            }
            className = cols[0];
            rest = cols[1];
        }
        if (classCode == null) {
            classCode = PciClassNames.code(className).orElse(null);
        }
        described = true;
        String n = rest;
        if (!cutOff) {
            Matcher m;
            while ((m = TAIL_REV.matcher(n)).find()) {
                n = n.substring(0, m.start());
            }
            Matcher ids = TAIL_IDS.matcher(n);
            if (ids.find()) {
                vendor = ids.group(1).toLowerCase(Locale.ROOT);
                device = ids.group(2).toLowerCase(Locale.ROOT);
                n = n.substring(0, ids.start());
            }
        }
        n = TAIL_ELLIPSIS.matcher(n).replaceFirst("").strip();
        name = n.isEmpty() ? Optional.empty() : Optional.of(n);
    }

    /** A device whose fields a table gave one by one. */
    static ListingDevice of(PciAddress address, String vendorId, String deviceId, String classCode,
                            Optional<String> name) {
        ListingDevice b = new ListingDevice(address);
        b.vendor = vendorId;
        b.device = deviceId;
        b.classCode = classCode;
        b.name = name;
        b.described = classCode != null || name.isPresent();
        return b;
    }

    /** Takes from {@code other} what this one does not know. */
    void fillFrom(ListingDevice other) {
        vendor = vendor == null ? other.vendor : vendor;
        device = device == null ? other.device : device;
        classCode = classCode == null ? other.classCode : classCode;
        name = name.isPresent() ? name : other.name;
        driver = driver.isPresent() ? driver : other.driver;
        modules = modules.isEmpty() ? other.modules : modules;
        described |= other.described;
    }

    PciDevice build() {
        PciDevice.Details details = modules.isEmpty() ? PciDevice.Details.NONE
                : new PciDevice.Details(Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(),
                        List.of(), Optional.empty(), OptionalInt.empty(), OptionalInt.empty(), Optional.empty(),
                        List.of(), false, Optional.empty(), OptionalInt.empty(), Optional.empty(),
                        OptionalInt.empty(), Optional.empty(), modules);
        return new PciDevice(address, vendor, device, classCode, name, driver,
                group == null ? OptionalInt.empty() : OptionalInt.of(group), details);
    }

    private static String lower(String s) {
        return s == null ? null : s.toLowerCase(Locale.ROOT);
    }

    private static int count(String s, char c) {
        int n = 0;
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) == c) {
                n++;
            }
        }
        return n;
    }
}
