package io.gpuforge.host;

import io.gpuforge.domain.PciAddress;
import io.gpuforge.domain.PciDevice;
import io.gpuforge.domain.PciInventory;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the IOMMU listings people paste in forums, in their many shapes: {@code IOMMU Group N:} blocks
 * (tabs, spaces or none), one-line {@code IOMMU group N 00:01.0 …}, {@code /sys/kernel/iommu_groups/N/devices/…}
 * paths, tree drawings, with or without {@code [cccc]} / {@code [vvvv:dddd]} / a domain, sorted or not;
 * optionally followed by {@code lspci -nnk} output, whose drivers (and names) are merged in.
 * Anything else is rejected with the line that did not fit.
 */
public final class ListingParser {

    public static final int MAX_BYTES = 4 * 1024 * 1024;
    private static final String ADDR = "((?:[0-9a-fA-F]{4,8}:)?[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\\.[0-7])";
    private static final Pattern HEADER = Pattern.compile("^(?:IOMMU\\s+)?[Gg]roup\\s+(\\d+)\\s*:?\\s*$",
            Pattern.CASE_INSENSITIVE);
    private static final Pattern ONE_LINE = Pattern.compile("^(?:IOMMU\\s+)?[Gg]roup\\s+(\\d+)\\s*:?\\s+" + ADDR
            + "(?:\\s+(.*))?$", Pattern.CASE_INSENSITIVE);
    private static final Pattern SYSFS = Pattern.compile("^/sys/kernel/iommu_groups/(\\d+)/devices/" + ADDR
            + "(?:\\s+(.*))?$");
    private static final Pattern DEVICE = Pattern.compile("^" + ADDR + "(?:\\s+(.*))?$");
    private static final Pattern CLASS_PART = Pattern.compile("^(.*?)(?:\\s*\\[([0-9a-fA-F]{4})\\])?:\\s*(.*)$");
    private static final Pattern TAIL_REV = Pattern.compile("\\s*\\((?:rev [0-9a-fA-F]+|prog-if [^)]*)\\)\\s*$");
    private static final Pattern TAIL_IDS = Pattern.compile("\\s*\\[([0-9a-fA-F]{4}):([0-9a-fA-F]{4})\\]\\s*$");
    private static final Pattern LSPCI_DETAIL = Pattern.compile(
            "^\\s+(Subsystem|Kernel driver in use|Kernel modules|DeviceName|Flags|Physical Slot)\\s*:\\s*(.*)$");
    private static final Pattern TREE = Pattern.compile("^[\\s│├└─|`+\\\\-]+");

    private ListingParser() {
    }

    /** Parses bytes, checking first that they are a text of sensible size. */
    public static PciInventory parse(byte[] input) throws ProbeException {
        if (input.length == 0) {
            throw new ProbeException("The listing is empty");
        }
        if (input.length > MAX_BYTES) {
            throw new ProbeException("The listing is " + input.length / (1024 * 1024)
                    + " MB; an IOMMU listing is a few kB (at most " + MAX_BYTES / (1024 * 1024) + " MB accepted)");
        }
        int control = 0;
        for (byte b : input) {
            if (b == 0) {
                throw new ProbeException("The listing is binary data (it contains NUL bytes), not text");
            }
            if ((b & 0xff) < 0x09 || ((b & 0xff) > 0x0d && (b & 0xff) < 0x20)) {
                control++;
            }
        }
        if (control > input.length / 20) {
            throw new ProbeException("The listing is binary data, not text");
        }
        return parse(new String(input, StandardCharsets.UTF_8));
    }

    public static PciInventory parse(String text) throws ProbeException {
        String[] lines = text.replace("\r", "").split("\n", -1);
        int lspciStart = lspciStart(lines);
        Map<PciAddress, Builder> devices = new LinkedHashMap<>();
        Integer group = null;
        int groupLine = -1;
        boolean groupHasDevice = true;
        for (int i = 0; i < lspciStart; i++) {
            String raw = lines[i];
            String line = TREE.matcher(raw).replaceFirst("").strip();
            if (ignorable(line)) {
                continue;
            }
            Matcher m;
            if ((m = HEADER.matcher(line)).matches()) {
                if (!groupHasDevice) {
                    throw new ProbeException("IOMMU group " + group + " (line " + (groupLine + 1) + ") lists no device");
                }
                group = Integer.parseInt(m.group(1));
                groupLine = i;
                groupHasDevice = false;
            } else if ((m = ONE_LINE.matcher(line)).matches() || (m = SYSFS.matcher(line)).matches()) {
                add(devices, Integer.parseInt(m.group(1)), m.group(2), m.group(3), i, raw);
            } else if ((m = DEVICE.matcher(line)).matches()) {
                if (!Character.isWhitespace(raw.charAt(0)) && devices.containsKey(parseAddress(m.group(1), i))) {
                    // a device seen before, unindented: lspci output without detail lines starts here
                    lspciStart = i;
                    break;
                }
                if (group == null) {
                    throw new ProbeException("Line " + (i + 1) + " names a device before any IOMMU group: '"
                            + shorten(raw) + "'");
                }
                add(devices, group, m.group(1), m.group(2), i, raw);
                groupHasDevice = true;
            } else {
                throw new ProbeException("Line " + (i + 1) + " is not part of an IOMMU listing: '" + shorten(raw) + "'");
            }
        }
        if (!groupHasDevice) {
            throw new ProbeException("IOMMU group " + group + " (line " + (groupLine + 1)
                    + ") lists no device: the listing looks truncated");
        }
        if (devices.isEmpty()) {
            throw new ProbeException("No IOMMU group with a device was found in the listing");
        }
        mergeLspci(lines, lspciStart, devices);
        List<PciDevice> out = new ArrayList<>();
        for (Builder b : devices.values()) {
            out.add(b.build());
        }
        return PciInventory.fromDevices(out);
    }

    private static boolean ignorable(String line) {
        return line.isEmpty() || line.startsWith("$") || line.startsWith("#") || line.startsWith("```")
                || line.startsWith("~~~");
    }

    /** Where lspci -nnk output begins: the device line above its first detail line, if any. */
    private static int lspciStart(String[] lines) {
        for (int i = 0; i < lines.length; i++) {
            if (LSPCI_DETAIL.matcher(lines[i]).matches()) {
                for (int j = i - 1; j >= 0; j--) {
                    if (!lines[j].isBlank() && !Character.isWhitespace(lines[j].charAt(0))) {
                        return DEVICE.matcher(lines[j].strip()).matches() ? j : i;
                    }
                }
                return i;
            }
        }
        return lines.length;
    }

    private static void add(Map<PciAddress, Builder> devices, int group, String address, String rest, int line,
                            String raw) throws ProbeException {
        Builder b = describe(address, rest, line, raw);
        b.group = OptionalInt.of(group);
        Builder existing = devices.get(b.address);
        if (existing != null && existing.group.isPresent() && existing.group.getAsInt() != group) {
            throw new ProbeException("Device " + b.address + " is listed in two IOMMU groups ("
                    + existing.group.getAsInt() + " and " + group + ", line " + (line + 1) + ")");
        }
        devices.put(b.address, b);
    }

    private static Builder describe(String address, String rest, int line, String raw) throws ProbeException {
        Builder b = new Builder();
        b.address = parseAddress(address, line);
        if (rest == null || rest.isBlank()) {
            return b;
        }
        if (count(rest, '[') != count(rest, ']') || count(rest, '(') != count(rest, ')')) {
            throw new ProbeException("Line " + (line + 1) + " is cut off: '" + shorten(raw) + "'");
        }
        Matcher c = CLASS_PART.matcher(rest);
        if (!c.matches()) {
            throw new ProbeException("Line " + (line + 1) + " has no 'class: name' part: '" + shorten(raw) + "'");
        }
        b.classCode = c.group(2) != null ? c.group(2) : PciClassNames.code(c.group(1)).orElse(null);
        String name = c.group(3);
        Matcher rev;
        while ((rev = TAIL_REV.matcher(name)).find()) {
            name = name.substring(0, rev.start());
        }
        Matcher ids = TAIL_IDS.matcher(name);
        if (ids.find()) {
            b.vendor = ids.group(1);
            b.device = ids.group(2);
            name = name.substring(0, ids.start());
        }
        b.name = name.isBlank() ? Optional.empty() : Optional.of(name.strip());
        return b;
    }

    private static void mergeLspci(String[] lines, int start, Map<PciAddress, Builder> devices) throws ProbeException {
        Builder current = null;
        for (int i = start; i < lines.length; i++) {
            String raw = lines[i];
            if (raw.isBlank() || ignorable(raw.strip())) {
                continue;
            }
            Matcher d = LSPCI_DETAIL.matcher(raw);
            if (d.matches()) {
                if (current == null) {
                    continue;
                }
                if (d.group(1).equals("Kernel driver in use")) {
                    current.driver = Optional.of(d.group(2).strip());
                } else if (d.group(1).equals("Kernel modules")) {
                    current.modules = List.of(d.group(2).strip().split("\\s*,\\s*"));
                }
                continue;
            }
            Matcher m = DEVICE.matcher(raw.strip());
            if (!m.matches() || Character.isWhitespace(raw.charAt(0))) {
                throw new ProbeException("Line " + (i + 1) + " is not lspci -nnk output: '" + shorten(raw) + "'");
            }
            Builder fromLspci = describe(m.group(1), m.group(2), i, raw);
            current = devices.get(fromLspci.address);
            if (current == null) {
                // lspci knows a device the listing did not show: keep it, without a group
                devices.put(fromLspci.address, fromLspci);
                current = fromLspci;
            } else {
                current.fillFrom(fromLspci);
            }
        }
    }

    private static PciAddress parseAddress(String address, int line) throws ProbeException {
        try {
            return PciAddress.parse(address);
        } catch (IllegalArgumentException e) {
            throw new ProbeException("Line " + (line + 1) + ": " + e.getMessage());
        }
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

    static String shorten(String s) {
        String t = s.strip();
        return t.length() > 120 ? t.substring(0, 117) + "…" : t;
    }

    private static final class Builder {
        PciAddress address;
        String vendor;
        String device;
        String classCode;
        Optional<String> name = Optional.empty();
        Optional<String> driver = Optional.empty();
        List<String> modules = List.of();
        OptionalInt group = OptionalInt.empty();

        void fillFrom(Builder other) {
            vendor = vendor == null ? other.vendor : vendor;
            device = device == null ? other.device : device;
            classCode = classCode == null ? other.classCode : classCode;
            name = name.isPresent() ? name : other.name;
        }

        PciDevice build() {
            PciDevice.Details details = modules.isEmpty() ? PciDevice.Details.NONE
                    : new PciDevice.Details(Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(),
                            List.of(), Optional.empty(), OptionalInt.empty(), OptionalInt.empty(), Optional.empty(),
                            List.of(), false, Optional.empty(), OptionalInt.empty(), Optional.empty(),
                            OptionalInt.empty(), Optional.empty(), modules);
            return new PciDevice(address, vendor, device, classCode, name, driver, group, details);
        }
    }
}
