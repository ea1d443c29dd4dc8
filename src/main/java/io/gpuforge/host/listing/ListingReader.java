package io.gpuforge.host.listing;

import io.gpuforge.host.ProbeException;
import io.gpuforge.host.ProbeStream;

import io.gpuforge.domain.pci.ListingReport;
import io.gpuforge.domain.pci.PciAddress;
import io.gpuforge.domain.pci.PciDevice;
import io.gpuforge.domain.pci.PciInventory;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads a pasted listing line by line. Group headers open a block whose deeper-indented device lines are
 * its members; one-line forms ({@code IOMMU group N addr …}, sysfs paths, {@code Adding to iommu group N})
 * carry their group, as do the rows of a table with a group column; lspci output (a device line that is not a member, and its detail lines) adds names,
 * ids and drivers. Cut markers, headers without devices and lines cut off make the listing partial. A
 * shell prompt or a fence ends a block. Every other line is skipped and kept for the report.
 */
public final class ListingReader {

    private static final int CI = Pattern.CASE_INSENSITIVE;
    private static final String ADDR = "((?:[0-9a-fA-F]{4,8}:)?[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\\.[0-7])";
    private static final String IDS = "\\[([0-9a-fA-F]{4}):([0-9a-fA-F]{4})\\]";
    private static final Pattern HEADER = Pattern.compile("^(?:#{1,6}\\s*)?(?:IOMMU\\s+)?Group\\s*:?\\s*(\\d+)\\s*:?$", CI);
    private static final Pattern SYSFS_DIR = Pattern.compile("^/sys/kernel/iommu_groups/(\\d+)(?:/devices)?/?:?$");
    private static final Pattern TREE_NUMBER = Pattern.compile("^(\\d+)/?$");
    private static final Pattern ONE_LINE = Pattern.compile("^(?:IOMMU\\s+)?Group\\s*:?\\s*(\\d+)\\s*:?\\s+(?:" + IDS
            + "\\s+)?(?:\\[R\\]\\s+)?" + ADDR + "(?:\\s+(.*))?$", CI);
    private static final Pattern SYSFS = Pattern.compile("^/sys/kernel/iommu_groups/(\\d+)/devices/" + ADDR + "(?:\\s+(.*))?$");
    private static final Pattern DMESG = Pattern.compile("^(?:\\[\\s*\\d+\\.\\d+\\]\\s*)?\\S+\\s+" + ADDR
            + ":\\s+Adding to iommu group (\\d+)$", CI);
    private static final Pattern LS_LINK = Pattern.compile("^l[rwxsStT-]{9}[.+@]?\\s.*?\\s" + ADDR + "\\s+->.*$");
    private static final Pattern DEVICE = Pattern.compile("^" + ADDR + "(?:\\s+(.*))?$");
    private static final Pattern DETAIL = Pattern.compile(
            "^(Subsystem|Kernel driver in use|Kernel modules|DeviceName|Flags|Physical Slot)\\s*:\\s*(.*)$");
    private static final Pattern LSPCI_V_GROUP = Pattern.compile("^IOMMU group:\\s*(\\d+)$", CI);
    private static final Pattern FENCE = Pattern.compile("^(?:```|~~~).*$");
    private static final Pattern PROMPT = Pattern.compile("^(?:[$#%](?:\\s.*)?|\\[?[\\w.-]+@[\\w.-]+(?:[: ][^\\s#$%]*)?\\]?\\s?"
            + "[#$%](?:\\s.*)?|PS [A-Za-z]:\\\\[^>]*>.*)$");
    private static final Pattern CUT_EDGES = Pattern.compile("^[\\s\\[\\](){}<>=~_*#-]+|[\\s\\[\\](){}<>=~_*#-]+$");
    private static final Pattern CUT_DOTS = Pattern.compile("^(?:(?:\\.\\s*){3,}|…).*$");
    private static final Pattern CUT_WORDS = Pattern.compile("^(?:snip(?:ped)?|cut|truncated|omitted|trimmed|shortened|"
            + "redacted|rest (?:is )?(?:omitted|cut|snipped|removed)|more (?:groups|devices|lines)(?: here| below| omitted)?"
            + "|and so on|etc\\.?|\\d+ (?:more )?(?:lines|groups|devices) (?:omitted|removed|snipped|cut))(?: for brevity)?$",
            CI);

    private final Map<PciAddress, ListingDevice> devices = new LinkedHashMap<>();
    private final List<ListingReport.Line> skipped = new ArrayList<>();
    private final List<ListingReport.Gap> gaps = new ArrayList<>();
    private final Set<Integer> open = new TreeSet<>();
    private int lines;

    /** a table with a group column (pvesh, Markdown) whose rows are read */
    private ListingTable table;
    /** the block of the last group header: its group, line, indentation and that of its first device */
    private Integer group;
    private int groupLine;
    private int headerIndent;
    private int deviceIndent = -1;
    private boolean groupHasDevice;
    /** reading lspci output: device lines are not group members */
    private boolean lspci;
    /** the device detail lines belong to, and the indentation of its line */
    private ListingDevice last;
    private int lastIndent;
    /** the group of the last device line placed in a group, for cuts between one-line groups */
    private Integer lastGroup;
    /** a cut was seen: the group of the next one-line device may have lost members too */
    private boolean afterCut;
    /** the group of the last listing line when that line was cut off (the listing may go on there) */
    private Integer cutOffGroup;

    ListingReport read(String text) throws ProbeException {
        String[] raw = text.replace("\r\n", "\n").replace('\r', '\n').split("\n", -1);
        for (int i = 0; i < raw.length; i++) {
            ListingLine l = ListingLine.of(i + 1, raw[i]);
            if (!l.blank()) {
                lines++;
                try {
                    accept(l);
                } catch (IllegalArgumentException e) {
                    skip(l); // an address out of range (slot over 1f): not a device line
                }
            }
        }
        endBlock();
        if (cutOffGroup != null) {
            open.add(cutOffGroup);
        }
        if (devices.values().stream().noneMatch(d -> d.group != null)) {
            throw new ProbeException("No IOMMU group with a device was found in the listing (" + lines
                    + " lines read, none names a device in an IOMMU group). Paste the output of: for d in"
                    + " /sys/kernel/iommu_groups/*/devices/*; do n=${d#*/iommu_groups/*}; n=${n%%/*};"
                    + " printf 'IOMMU group %s ' \"$n\"; lspci -nns \"${d##*/}\"; done");
        }
        List<PciDevice> out = new ArrayList<>();
        for (ListingDevice d : devices.values()) {
            out.add(d.build());
        }
        return new ListingReport(PciInventory.fromDevices(out), lines, skipped, gaps, open);
    }

    private void accept(ListingLine l) throws ProbeException {
        String c = l.content();
        Matcher m;
        Optional<ListingTable> header = ListingTable.header(l.text());
        Optional<ListingTable.Row> row = table == null ? Optional.empty() : table.row(l.text());
        if (header.isPresent()) {
            endBlock();
            table = header.get();
            last = null;
        } else if (row.isPresent()) {
            tableRow(l, row.get());
        } else if (FENCE.matcher(c).matches() || (!HEADER.matcher(c).matches() && PROMPT.matcher(c).matches())) {
            skip(l);
            endBlock();
            table = null;
            lspci = false;
            last = null;
        } else if (isCut(c)) {
            cut(l);
        } else if ((m = DETAIL.matcher(c)).matches()) {
            if (last == null) {
                skip(l);
            } else if (m.group(1).equals("Kernel driver in use")) {
                last.driver = Optional.of(m.group(2).strip());
            } else if (m.group(1).equals("Kernel modules")) {
                last.modules = List.of(m.group(2).strip().split("\\s*,\\s*"));
            }
        } else if (last != null && l.indent() > lastIndent && (m = LSPCI_V_GROUP.matcher(c)).matches()) {
            place(last, Integer.parseInt(m.group(1)), l);
        } else if ((m = HEADER.matcher(c)).matches() || (m = SYSFS_DIR.matcher(c)).matches()
                || (l.tree() && (m = TREE_NUMBER.matcher(c)).matches())) {
            header(l, Integer.parseInt(m.group(1)));
        } else if ((m = ONE_LINE.matcher(c)).matches()) {
            grouped(l, Integer.parseInt(m.group(1)), device(m.group(4), m.group(5), m.group(2), m.group(3)));
        } else if ((m = SYSFS.matcher(c)).matches()) {
            grouped(l, Integer.parseInt(m.group(1)), device(m.group(2), m.group(3), null, null));
        } else if ((m = DMESG.matcher(c)).matches()) {
            grouped(l, Integer.parseInt(m.group(2)), device(m.group(1), null, null, null));
        } else if (group != null && (m = LS_LINK.matcher(c)).matches()) {
            member(l, device(m.group(1), null, null, null));
        } else if ((m = DEVICE.matcher(c)).matches()) {
            ListingDevice d = device(m.group(1), m.group(2), null, null);
            if (isMember(l, d.address)) {
                member(l, d);
            } else if (d.described) {
                lspciLine(l, d);
            } else {
                skip(l);
            }
        } else {
            skip(l);
        }
    }

    static boolean isCut(String content) {
        String core = CUT_EDGES.matcher(content).replaceAll("");
        return CUT_DOTS.matcher(core).matches() || CUT_WORDS.matcher(core).matches();
    }

    private void header(ListingLine l, int n) {
        endBlock();
        group = n;
        groupLine = l.number();
        headerIndent = l.indent();
        deviceIndent = -1;
        groupHasDevice = false;
        lspci = false;
        last = null;
        lastGroup = null;
        afterCut = false;
        cutOffGroup = null;
    }

    /** A device line inside a block is a member unless it is less indented than the block's devices, or, no
     * deeper than its header, names a device already placed (lspci output after the listing repeats them). */
    private boolean isMember(ListingLine l, PciAddress a) {
        if (group == null || lspci || (deviceIndent >= 0 && l.indent() < deviceIndent)) {
            return false;
        }
        ListingDevice known = devices.get(a);
        return l.indent() > headerIndent || known == null || known.group == null;
    }

    private void member(ListingLine l, ListingDevice d) throws ProbeException {
        if (deviceIndent < 0) {
            deviceIndent = l.indent();
        }
        groupHasDevice = true;
        placed(l, d, group);
    }

    private void grouped(ListingLine l, int g, ListingDevice d) throws ProbeException {
        endBlock();
        if (afterCut) {
            open.add(g);
            afterCut = false;
        }
        placed(l, d, g);
    }

    private void placed(ListingLine l, ListingDevice d, int g) throws ProbeException {
        ListingDevice kept = place(d, g, l);
        if (d.cutOff) {
            gaps.add(new ListingReport.Gap(l.number(), "line " + l.number() + " is cut off: '"
                    + ProbeStream.shorten(l.text()) + "'"));
        }
        cutOffGroup = d.cutOff ? g : null;
        lastGroup = g;
        last = kept;
        lastIndent = l.indent();
    }

    /** Puts a device into group {@code g}, merging what an earlier line said about it. */
    private ListingDevice place(ListingDevice d, int g, ListingLine l) throws ProbeException {
        ListingDevice existing = devices.get(d.address);
        if (existing != null && existing.group != null && existing.group != g) {
            throw new ProbeException("Device " + d.address + " is listed in two IOMMU groups (" + existing.group
                    + " and " + g + ", line " + l.number() + "): the text seems to hold two listings (say, before and"
                    + " after a change); paste only one");
        }
        ListingDevice kept = d;
        if (existing != null) {
            if (existing.group == null && existing != d) {
                d.fillFrom(existing); // lspci output before the listing
            } else {
                existing.fillFrom(d); // the same device listed again: the first description stays
                kept = existing;
            }
        }
        kept.group = g;
        devices.put(d.address, kept);
        return kept;
    }

    private void lspciLine(ListingLine l, ListingDevice d) {
        endBlock();
        lspci = true;
        ListingDevice existing = devices.get(d.address);
        if (existing == null) {
            devices.put(d.address, d); // lspci knows a device the listing did not show: kept, without a group
            existing = d;
        } else {
            existing.fillFrom(d);
        }
        last = existing;
        lastIndent = l.indent();
    }

    private void tableRow(ListingLine l, ListingTable.Row r) throws ProbeException {
        if (r.group() != null) {
            grouped(l, r.group(), r.device());
            return;
        }
        ListingDevice existing = devices.putIfAbsent(r.device().address, r.device()); // a row without a group
        if (existing != null) {
            existing.fillFrom(r.device());
        }
    }

    private void cut(ListingLine l) {
        if (lspci) {
            skip(l); // lspci lines left out: the groups are not affected
            last = null;
            return;
        }
        gaps.add(new ListingReport.Gap(l.number(), "line " + l.number() + " ('" + ProbeStream.shorten(l.text())
                + "'): lines were left out here"));
        if (group != null) {
            open.add(group);
        }
        if (lastGroup != null) {
            open.add(lastGroup);
        }
        group = null; // a device line after the cut may belong to a group whose header was cut
        afterCut = true;
        last = null;
        lspci = false;
        cutOffGroup = null;
    }

    /** Closes the block of the last header; a header with no device under it means lines are missing. */
    private void endBlock() {
        if (group != null && !groupHasDevice) {
            gaps.add(new ListingReport.Gap(groupLine, "IOMMU group " + group + " (line " + groupLine
                    + ") lists no device: lines were left out after it"));
            open.add(group);
            cutOffGroup = null;
        }
        group = null;
    }

    private void skip(ListingLine l) {
        skipped.add(new ListingReport.Line(l.number(), l.text()));
    }

    private static ListingDevice device(String address, String rest, String vendor, String device) {
        return ListingDevice.describe(PciAddress.parse(address), rest, vendor, device);
    }
}
