package io.gpuforge.passthrough;

import io.gpuforge.domain.message.Message;
import io.gpuforge.domain.passthrough.PassthroughPlan;
import io.gpuforge.domain.host.HostFacts;
import io.gpuforge.domain.pci.PciAddress;
import io.gpuforge.domain.pci.PciDevice;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Per address: a udev rule sets {@code driver_override} to vfio-pci for exactly the planned functions, so an
 * identical card elsewhere keeps its host driver. The modprobe.d file keeps the softdeps, without ids.
 */
final class BindByAddress implements VfioBinding {

    static final String UDEV_FILE = "/etc/udev/rules.d/80-gpuforge-vfio.rules";

    @Override
    public PlanPart bind(HostFacts f, List<PciDevice> functions, boolean blacklistDrivers) {
        PlanPart modprobe = VfioModprobeFile.plan(f, functions, Optional.empty(), blacklistDrivers)
                .and(PlanPart.note(Message.of("note.bindByAddress")));
        String before = f.files().get(UDEV_FILE);
        String rules = merge(before, rules(functions));
        if (rules.equals(before)) {
            return modprobe;
        }
        return modprobe.and(PlanPart.edit(new PassthroughPlan.FileEdit(UDEV_FILE, Optional.ofNullable(before), rules)));
    }

    /** Keeps the rules an earlier plan wrote for other cards; the new card's rules follow. */
    static String merge(String before, String fresh) {
        if (before == null) {
            return fresh;
        }
        List<String> lines = new ArrayList<>(List.of(fresh.split("\n")));
        List<String> earlier = new ArrayList<>();
        for (String line : before.split("\n")) {
            if (!line.isBlank() && !line.startsWith("#") && !lines.contains(line)) {
                earlier.add(line);
            }
        }
        lines.addAll(1, earlier);
        return String.join("\n", lines) + "\n";
    }

    static String rules(List<PciDevice> functions) {
        Set<PciAddress> chosen = new TreeSet<>();
        functions.forEach(d -> chosen.add(d.address()));
        StringBuilder rules = new StringBuilder("# Written by GPUForge: these functions go to vfio-pci, identical"
                + " cards elsewhere stay with the host.\n");
        for (PciAddress a : chosen) {
            rules.append("ACTION==\"add\", SUBSYSTEM==\"pci\", KERNEL==\"").append(a)
                    .append("\", ATTR{driver_override}=\"vfio-pci\"\n");
        }
        return rules.toString();
    }
}
