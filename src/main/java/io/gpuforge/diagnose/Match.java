package io.gpuforge.diagnose;

import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What one cause matched in the logs: its strong lines, its supporting lines, and all lines read (for facts the
 * advice needs: the device's address, the IOMMU group, the card, the kernel).
 */
record Match(Signatures.Cause cause, List<LogLines.Line> strong, List<LogLines.Line> supporting,
             List<LogLines.Line> all) {

    /** A PCI address with its domain ({@code 0000:01:00.0}), after {@code host=}, or after a driver's name. */
    static final Pattern ADDRESS = Pattern.compile(
            "(?<![0-9a-f:])(?:([0-9a-f]{4}):)?([0-9a-f]{2}):([0-9a-f]{2})\\.([0-7])(?![0-9a-f])");
    private static final Pattern VFIO_ADDRESS = Pattern.compile(
            "(?:host=|vfio-pci |vfio |sysfsdev=\\S*/)((?:[0-9a-f]{4}:)?[0-9a-f]{2}:[0-9a-f]{2}\\.[0-7])");
    private static final Pattern ANCHORED_ADDRESS = Pattern.compile(
            "(?:host=|vfio-pci |vfio |pci |pcieport |device |\\[)((?:[0-9a-f]{4}:)?[0-9a-f]{2}:[0-9a-f]{2}\\.[0-7])");
    private static final Pattern GROUP = Pattern.compile("\\bgroup (\\d+)\\b");

    Match {
        strong = List.copyOf(strong);
        supporting = List.copyOf(supporting);
        all = List.copyOf(all);
    }

    /**
     * The PCI address of the device the strong lines are about ({@code 0000:01:00.0}, the domain added when they leave
     * it out): one vfio names (not the root port an AER line names) before any other.
     */
    Optional<String> address() {
        for (Pattern p : new Pattern[] {VFIO_ADDRESS, ANCHORED_ADDRESS}) {
            for (LogLines.Line l : strong) {
                Matcher m = p.matcher(l.plain());
                if (m.find()) {
                    return Optional.of(withDomain(m.group(1)));
                }
            }
        }
        return Optional.empty();
    }

    /** The IOMMU group the strong lines name. */
    OptionalInt group() {
        for (LogLines.Line l : strong) {
            Matcher m = GROUP.matcher(l.plain());
            if (m.find()) {
                return OptionalInt.of(Integer.parseInt(m.group(1)));
            }
        }
        return OptionalInt.empty();
    }

    /** The first match of {@code p} in any line (group 1 when it has one). */
    Optional<String> find(Pattern p) {
        for (LogLines.Line l : all) {
            Matcher m = p.matcher(l.plain());
            if (m.find()) {
                return Optional.of(m.groupCount() >= 1 && m.group(1) != null ? m.group(1) : m.group());
            }
        }
        return Optional.empty();
    }

    boolean mentions(Pattern p) {
        return find(p).isPresent();
    }

    static String withDomain(String address) {
        return address.length() == 7 ? "0000:" + address : address;
    }

    /** {@code 0000:01:00.0} → {@code 0000:01:00}: the slot, all its functions. */
    static String slot(String address) {
        return address.substring(0, address.lastIndexOf('.'));
    }
}
