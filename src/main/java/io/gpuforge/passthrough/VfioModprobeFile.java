package io.gpuforge.passthrough;

import io.gpuforge.domain.passthrough.PassthroughPlan;
import io.gpuforge.domain.host.HostFacts;
import io.gpuforge.domain.pci.PciDevice;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * GPUForge's modprobe.d file: the vfio-pci ids (when binding by ids), a softdep that loads vfio-pci before each
 * host driver of the functions, and optionally a blacklist of those drivers. What an earlier plan for another
 * card wrote there is kept, its ids joined with the new ones.
 */
final class VfioModprobeFile {

    static final String PATH = "/etc/modprobe.d/gpuforge-vfio.conf";
    private static final String IDS = "options vfio-pci ids=";
    private static final Pattern OLD_IDS = Pattern.compile("^options vfio-pci ids=(\\S+)", Pattern.MULTILINE);

    private VfioModprobeFile() {
    }

    /** The edit of the file; none when it holds all of this already or would hold no directive. */
    static PlanPart plan(HostFacts f, List<PciDevice> functions, Optional<Set<String>> ids, boolean blacklistDrivers) {
        String before = f.modprobe().files().get(PATH);
        String after = merge(before, content(functions, ids, blacklistDrivers));
        boolean hasDirectives = after.lines().anyMatch(l -> !l.isBlank() && !l.startsWith("#"));
        if (!hasDirectives || after.equals(before)) {
            return PlanPart.none();
        }
        return PlanPart.edit(new PassthroughPlan.FileEdit(PATH, Optional.ofNullable(before), after));
    }

    static String content(List<PciDevice> functions, Optional<Set<String>> ids, boolean blacklistDrivers) {
        Set<String> drivers = new TreeSet<>();
        for (PciDevice d : functions) {
            d.driver().filter(x -> !x.equals("vfio-pci")).map(VfioModprobeFile::module).ifPresent(drivers::add);
        }
        StringBuilder conf = new StringBuilder("# Written by GPUForge for passthrough of " + functions.get(0).address()
                + ": vfio-pci claims the card before its host drivers.\n");
        ids.ifPresent(i -> conf.append(IDS).append(String.join(",", i)).append('\n'));
        for (String d : drivers) {
            conf.append("softdep ").append(d).append(" pre: vfio-pci\n");
        }
        if (blacklistDrivers) {
            for (String d : drivers) {
                conf.append("blacklist ").append(d).append('\n');
            }
        }
        return conf.toString();
    }

    /** Keeps lines of an existing GPUForge file that the new content lacks (another card planned before). */
    static String merge(String before, String fresh) {
        if (before == null) {
            return fresh;
        }
        List<String> out = new ArrayList<>(List.of(fresh.split("\n")));
        for (String line : before.split("\n")) {
            if (!line.startsWith("#") && !line.isBlank() && !out.contains(line) && !line.startsWith(IDS)) {
                out.add(line);
            }
        }
        // union of ids with an earlier plan; a card bound by address now keeps the ids of one bound by ids before
        Matcher old = OLD_IDS.matcher(before);
        if (old.find() && out.stream().noneMatch(l -> l.startsWith(IDS))) {
            out.add(1, old.group());
        } else if (old.find(0)) {
            for (int i = 0; i < out.size(); i++) {
                if (out.get(i).startsWith(IDS)) {
                    Set<String> all = new TreeSet<>(List.of(old.group(1).split(",")));
                    all.addAll(List.of(out.get(i).substring(IDS.length()).split(",")));
                    out.set(i, IDS + String.join(",", all));
                }
            }
        }
        if (before.startsWith("# Written by GPUForge")) {
            out.set(0, before.split("\n")[0]);
        }
        return String.join("\n", out) + "\n";
    }

    /** sysfs driver name → module name for modprobe. */
    static String module(String driver) {
        switch (driver) {
            case "nvidia-gpu":
                return "i2c_nvidia_gpu";
            case "xhci_hcd":
                return "xhci_pci";
            default:
                return driver.replace('-', '_').toLowerCase(Locale.ROOT);
        }
    }
}
