package io.gpuforge.passthrough;

import io.gpuforge.domain.passthrough.PassthroughPlan;
import io.gpuforge.domain.host.HostFacts;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Debian's initramfs-tools (also Ubuntu, Proxmox VE): modules listed in {@code /etc/modules} are loaded at
 * boot and copied into the image by {@code update-initramfs}. Existing entries are kept, obsolete ones dropped.
 */
final class InitramfsTools implements InitramfsTool {

    static final String FILE = "/etc/modules";

    @Override
    public PlanPart addModules(HostFacts f, VfioModules modules) {
        Optional<String> before = Optional.ofNullable(f.modprobe().files().get(FILE));
        List<String> lines = new ArrayList<>(List.of(before.orElse("").split("\n", -1)));
        if (!lines.isEmpty() && lines.get(lines.size() - 1).isEmpty()) {
            lines.remove(lines.size() - 1);
        }
        lines.removeIf(modules::isObsolete);
        for (String w : modules.names()) {
            boolean present = lines.stream().anyMatch(l -> l.strip().split("\\s+")[0].replace('-', '_').equals(w));
            if (!present) {
                lines.add(w);
            }
        }
        String after = String.join("\n", lines) + "\n";
        if (Optional.of(after).equals(before)) {
            return PlanPart.none();
        }
        return PlanPart.edit(new PassthroughPlan.FileEdit(FILE, before, after));
    }

    @Override
    public String rebuildCommand() {
        return "update-initramfs -u -k all";
    }
}
