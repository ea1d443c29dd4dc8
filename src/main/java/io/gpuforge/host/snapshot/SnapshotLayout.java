package io.gpuforge.host.snapshot;

import io.gpuforge.host.ProbeException;
import io.gpuforge.host.ProbeStream;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The shapes a snapshot accepts from a host's probe output. What a host prints is untrusted: a name
 * becomes a path on the admin's machine only when it has the shape the probe produces (a PCI address,
 * a sysfs attribute name, a path under the directories the probe reads, a link the probe lists whose
 * target stays inside the tree). Anything else is refused with the line it is on.
 */
public final class SnapshotLayout {

    /** Linux's largest NR_CPUS. */
    static final int MAX_CPUS = 8192;
    private static final String PCI = "[0-9a-f]{4,8}:[0-9a-f]{2}:[0-9a-f]{2}\\.[0-7]";
    private static final Pattern PCI_ADDRESS = Pattern.compile(PCI);
    private static final Pattern ATTRIBUTE = Pattern.compile("[a-z][a-z0-9_]{0,63}");
    private static final Pattern DEVICE_MAPPER = Pattern.compile("dm-[0-9]{1,6}");
    /** One path segment of a file the probe reads (modprobe.d and friends may name files freely, but not with '/'). */
    private static final Pattern FILE_SEGMENT = Pattern.compile("[A-Za-z0-9._+@:,=~ -]{1,255}");
    /** A kernel object name (network interface, block device; sysfs writes '/' in names as '!'). */
    private static final String NAME = "[A-Za-z0-9._:+@!,=-]{1,64}";
    /** Where the probe reads files and checks existence (probe.sh). */
    private static final List<String> PREFIXES = List.of("/etc", "/proc", "/usr", "/boot", "/gpuforge",
            "/var/lib/gpuforge", "/sys/firmware", "/sys/kernel/iommu_groups", "/dev/vfio");
    /** The links the probe lists ({@code ls -ld} in probe.sh), and the group member links a snapshot makes. */
    private static final List<Pattern> LINKS = List.of(
            Pattern.compile("/sys/bus/pci/devices/" + PCI + "/(driver|iommu_group|physfn)"),
            Pattern.compile("/sys/class/net/" + NAME + "/(device|brif/" + NAME + "|lower_" + NAME + ")"),
            Pattern.compile("/sys/class/block/" + NAME + "(/slaves/" + NAME + ")?"),
            Pattern.compile("/sys/bus/virtio/devices/virtio[0-9]{1,4}"),
            Pattern.compile("/sys/firmware/efi"),
            Pattern.compile("/sys/kernel/iommu_groups/[0-9]{1,6}/devices/" + PCI));
    private static final Pattern DRIVER = Pattern.compile("/sys/bus/pci/devices/" + PCI + "/driver");
    private static final Pattern GROUP = Pattern.compile("/sys/bus/pci/devices/" + PCI + "/iommu_group");
    /** A relative target: climbing first ({@code ../}), then names only, never climbing again. */
    private static final Pattern TARGET = Pattern.compile("((?:\\.\\./)*)(" + NAME + "(?:/" + NAME + ")*)/?");

    private SnapshotLayout() {
    }

    /**
     * Checks every record of {@code s} whose names become paths and returns the links to make (path in
     * the tree → target); the first record of another shape is a {@link ProbeException} naming its line
     * in {@code text}.
     */
    static Map<String, String> check(String text, ProbeStream s) throws ProbeException {
        Lines lines = new Lines(text);
        for (String f : s.files.keySet()) {
            refuseIf(checkPath(f), lines, l -> l.equals("@@file " + f));
        }
        for (String e : s.exists) {
            refuseIf(checkPath(e), lines, l -> l.equals("@@exists " + e));
        }
        if (s.cpus < 0 || s.cpus > MAX_CPUS) {
            refuseIf(Optional.of("more CPUs than Linux supports"), lines, l -> l.startsWith("@@cpus "));
        }
        for (Map.Entry<String, Map<String, List<String>>> d : s.devices.entrySet()) {
            String address = d.getKey();
            int at = lines.find(0, l -> l.equals("@@dev " + address));
            if (!PCI_ADDRESS.matcher(address).matches()) {
                throw lines.refused(at, "not a PCI address");
            }
            for (String a : d.getValue().keySet()) {
                if (!ATTRIBUTE.matcher(a).matches()) {
                    throw lines.refused(lines.find(at, l -> l.startsWith(a + "=")), "not a sysfs attribute name");
                }
            }
        }
        for (Map.Entry<Integer, List<String>> g : s.groups.entrySet()) {
            Predicate<String> groupLine = l -> l.startsWith("@@group ") && l.substring(8).strip()
                    .split(" ")[0].replaceFirst("^\\+", "").equals(String.valueOf(g.getKey()));
            if (g.getKey() < 0) {
                refuseIf(Optional.of("not an IOMMU group number"), lines, groupLine);
            }
            for (String m : g.getValue()) {
                if (!PCI_ADDRESS.matcher(m).matches()) {
                    refuseIf(Optional.of("group member '" + m + "' is not a PCI address"), lines,
                            groupLine.and(l -> List.of(l.split(" ")).contains(m)));
                }
            }
        }
        for (String dm : s.deviceMapperNames.keySet()) {
            if (!DEVICE_MAPPER.matcher(dm).matches()) {
                refuseIf(Optional.of("not a device-mapper device name"), lines, l -> l.startsWith("@@dm " + dm + " "));
            }
        }
        return links(s, lines);
    }

    private static Map<String, String> links(ProbeStream s, Lines lines) throws ProbeException {
        String prefix = s.root.equals("/") ? "" : s.root;
        Map<String, String> out = new LinkedHashMap<>();
        for (String line : s.links) {
            int arrow = line.indexOf(" -> ");
            if (arrow < 0) {
                continue; // a directory, not a link (/sys/firmware/efi)
            }
            int slash = line.indexOf(" /");
            if (slash < 0 || slash > arrow) {
                throw lines.refused(lines.find(0, l -> l.equals("|" + line)), "not an 'ls -ld' line of a link");
            }
            String path = line.substring(slash + 1, arrow);
            if (!prefix.isEmpty() && path.startsWith(prefix + "/")) {
                path = path.substring(prefix.length());
            }
            Link link = checkLink(path, line.substring(arrow + 4).strip());
            if (link.target().isEmpty()) {
                throw lines.refused(lines.find(0, l -> l.equals("|" + line)), link.problem());
            }
            out.putIfAbsent(path, link.target().get());
        }
        return out;
    }

    /** Why {@code path} (of a file or existence record) is refused, or empty when it has the expected shape. */
    static Optional<String> checkPath(String path) {
        if (!path.startsWith("/") || path.length() > 1024) {
            return Optional.of("not an absolute path");
        }
        for (String segment : path.substring(1).split("/", -1)) {
            if (segment.equals(".") || segment.equals("..") || !FILE_SEGMENT.matcher(segment).matches()) {
                return Optional.of("not a plain path");
            }
        }
        for (String prefix : PREFIXES) {
            if (path.equals(prefix) || path.startsWith(prefix + "/")) {
                return Optional.empty();
            }
        }
        return Optional.of("not under a directory the probe reads");
    }

    /** A link's target to store, or why the link is refused. */
    record Link(Optional<String> target, String problem) {
    }

    /**
     * The target to store for a link at {@code path} (absolute, in the tree), or why it is refused. The
     * target must stay inside the tree. A device's driver and IOMMU-group links are the exception: on the
     * host they sit deeper (/sys/devices/…/X, one level per bridge) than the snapshot's
     * /sys/bus/pci/devices/X, so they are stored as the link the host means
     * ({@code ../../../../bus/pci/drivers/NAME}, {@code ../../../../kernel/iommu_groups/N}).
     */
    static Link checkLink(String path, String target) {
        if (List.of(path.split("/")).stream().anyMatch(s -> s.equals(".") || s.equals(".."))
                || LINKS.stream().noneMatch(p -> p.matcher(path).matches())) {
            return new Link(Optional.empty(), "not a link the probe lists");
        }
        Matcher m = TARGET.matcher(target);
        if (!m.matches() || List.of(m.group(2).split("/")).stream().anyMatch(s -> s.equals(".") || s.equals(".."))) {
            return new Link(Optional.empty(), "its target is not a relative sysfs path");
        }
        String names = m.group(2);
        if (DRIVER.matcher(path).matches()) {
            return names.matches("bus/pci/drivers/" + NAME) ? new Link(Optional.of("../../../../" + names), "")
                    : new Link(Optional.empty(), "a driver link points to bus/pci/drivers/NAME");
        }
        if (GROUP.matcher(path).matches()) {
            return names.matches("kernel/iommu_groups/[0-9]{1,6}") ? new Link(Optional.of("../../../../" + names), "")
                    : new Link(Optional.empty(), "an IOMMU group link points to kernel/iommu_groups/N");
        }
        int ups = m.group(1).length() / 3;
        int depth = path.substring(1).split("/").length - 1;
        return ups > depth ? new Link(Optional.empty(), "its target points outside the snapshot")
                : new Link(Optional.of(target), "");
    }

    private static void refuseIf(Optional<String> problem, Lines lines, Predicate<String> line) throws ProbeException {
        if (problem.isPresent()) {
            throw lines.refused(lines.find(0, line), problem.get());
        }
    }

    /** The probe output's lines, to name the one a refused record came from. */
    private static final class Lines {
        private final String[] lines;

        Lines(String text) {
            lines = text.split("\n", -1);
        }

        /** Index of the first line at or after {@code from} that matches, or -1. */
        int find(int from, Predicate<String> p) {
            for (int i = Math.max(from, 0); i < lines.length; i++) {
                if (p.test(lines[i])) {
                    return i;
                }
            }
            return -1;
        }

        ProbeException refused(int index, String why) {
            String where = index < 0 ? "A record of the probe output" : "Probe output line " + (index + 1);
            String text = index < 0 ? "" : lines[index].strip();
            return new ProbeException(where + " is not what GPUForge's probe prints (" + why + "): '"
                    + (text.length() > 200 ? text.substring(0, 197) + "…" : text) + "'. No snapshot was written:"
                    + " the host's output cannot be trusted as it is; check the host (it may be compromised).");
        }
    }
}
