package io.gpuforge.domain.host;

import java.util.List;
import java.util.Map;

/**
 * What {@code /etc/modprobe.d}, {@code /etc/modules} and {@code /etc/modules-load.d} say about vfio.
 *
 * @param vfioIds ids from {@code options vfio-pci ids=…} (e.g. {@code 10de:2786})
 * @param softdeps module → modules it loads first ({@code softdep nvidia pre: vfio-pci})
 * @param blacklisted modules named by {@code blacklist}
 * @param modulesLoaded modules listed to load at boot ({@code /etc/modules}, {@code modules-load.d})
 * @param files every file read, path → content (for the planner's diffs)
 */
public record ModprobeConfig(List<String> vfioIds, Map<String, List<String>> softdeps, List<String> blacklisted,
                             List<String> modulesLoaded, List<Problem> problems, Map<String, String> files) {

    /** A line that modprobe would not understand or that cannot be what was meant. */
    public record Problem(String file, int line, String text, String reason) {
    }

    public ModprobeConfig {
        vfioIds = List.copyOf(vfioIds);
        softdeps = Map.copyOf(softdeps);
        blacklisted = List.copyOf(blacklisted);
        modulesLoaded = List.copyOf(modulesLoaded);
        problems = List.copyOf(problems);
        files = Map.copyOf(files);
    }
}
