package io.gpuforge.host.probe;

import io.gpuforge.host.ProbeStream;

import io.gpuforge.domain.host.HostFacts;
import io.gpuforge.domain.host.ModprobeConfig;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Kernel modules: those loaded now ({@code /proc/modules}), what modprobe.d and the modules-load lists say,
 * and the initramfs generator that decides what loads before the root file system (with whether vfio is in
 * the current image, where that could be looked at).
 */
public final class ModulesReader {

    private final ProbeStream s;
    private final Consumer<String> unknowns;

    ModulesReader(ProbeStream s, Consumer<String> unknowns) {
        this.s = s;
        this.unknowns = unknowns;
    }

    List<String> loaded() {
        List<String> out = new ArrayList<>();
        Optional.ofNullable(s.files.get("/proc/modules")).ifPresentOrElse(m -> {
            for (String line : m.split("\n")) {
                String name = line.split(" ", 2)[0].strip();
                if (!name.isEmpty()) {
                    out.add(name);
                }
            }
        }, () -> unknowns.accept("loaded modules: /proc/modules not readable"));
        return out;
    }

    /** modprobe.d, {@code /etc/modules} and modules-load.d, read the way modprobe reads them. */
    ModprobeConfig modprobe() {
        Map<String, String> configFiles = new LinkedHashMap<>();
        s.files.forEach((path, content) -> {
            if (path.startsWith("/etc/modprobe.d/") || path.startsWith("/etc/modules")) {
                configFiles.put(path, content);
            }
        });
        return ModprobeParser.parse(configFiles);
    }

    HostFacts.Initramfs initramfs() {
        HostFacts.Initramfs.Tool tool;
        if (s.exists.contains("/usr/sbin/update-initramfs") || s.exists.contains("/etc/initramfs-tools")) {
            tool = HostFacts.Initramfs.Tool.INITRAMFS_TOOLS;
        } else if (s.exists.contains("/usr/bin/dracut") || s.exists.contains("/usr/sbin/dracut")) {
            tool = HostFacts.Initramfs.Tool.DRACUT;
        } else if (s.exists.contains("/usr/bin/mkinitcpio")) {
            tool = HostFacts.Initramfs.Tool.MKINITCPIO;
        } else {
            tool = HostFacts.Initramfs.Tool.UNKNOWN;
            unknowns.accept("initramfs tool: none of initramfs-tools, dracut, mkinitcpio found");
        }
        Optional<Boolean> vfio = Optional.ofNullable(s.commands.get("lsinitramfs")).map(o -> o.contains("vfio"));
        return new HostFacts.Initramfs(tool, vfio);
    }
}
