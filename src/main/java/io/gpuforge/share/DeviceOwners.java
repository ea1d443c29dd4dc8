package io.gpuforge.share;

import io.gpuforge.domain.host.HostFacts;
import io.gpuforge.domain.pci.PciDevice;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;

/**
 * Which GPU of a host a device node belongs to: {@code /dev/nvidiaN} by the NVIDIA driver's minor, the driver's
 * shared nodes ({@code nvidiactl}, {@code nvidia-uvm}, {@code nvidia-caps}) to every NVIDIA GPU, DRM nodes by sysfs;
 * a directory ({@code /dev/dri}) stands for every node under it. And the character-device majors of GPU drivers,
 * from {@code /proc/devices} (NVIDIA's uvm and caps majors change between boots).
 */
final class DeviceOwners {

    /** the host's GPUs on a driver that shares, each with its device nodes (read once: asked for every line) */
    private final Map<PciDevice, List<String>> nodes = new LinkedHashMap<>();
    private final Map<String, String> majors;

    DeviceOwners(HostFacts f) {
        ShareFacts s = new ShareFacts(f);
        f.pci().devices().stream().filter(d -> d.classCode() != null && d.classCode().startsWith("03"))
                .filter(d -> d.driver().filter(ShareChecks.SHARING_DRIVERS::contains).isPresent())
                .forEach(d -> nodes.put(d, nodesOf(s, d)));
        this.majors = majors(f);
    }

    /** The GPUs a path gives access to (none when it is no GPU's). */
    List<PciDevice> gpusOf(String path) {
        List<PciDevice> out = new ArrayList<>();
        nodes.forEach((d, n) -> {
            if (n.stream().anyMatch(x -> x.equals(path) || x.startsWith(path + "/"))) {
                out.add(d);
            }
        });
        return out;
    }

    /** The GPUs of the host on a driver that shares (display controllers). */
    List<PciDevice> gpus() {
        return List.copyOf(nodes.keySet());
    }

    /** Every host device node a GPU has. */
    List<String> nodesOf(PciDevice gpu) {
        return nodes.getOrDefault(gpu, List.of());
    }

    private static List<String> nodesOf(ShareFacts s, PciDevice gpu) {
        List<String> out = new ArrayList<>();
        if (gpu.driver().filter("nvidia"::equals).isPresent()) {
            OptionalInt minor = s.nvidiaMinor(gpu);
            minor.ifPresent(m -> out.add("/dev/nvidia" + m));
            out.addAll(List.of("/dev/nvidiactl", "/dev/nvidia-uvm", "/dev/nvidia-uvm-tools"));
            out.addAll(s.nvidiaCaps());
        } else {
            s.drmNodes(gpu).forEach(n -> out.add("/dev/dri/" + n));
        }
        return List.copyOf(out);
    }

    /** Character-device majors by driver name, from {@code /proc/devices} ({@code 226 → drm}). */
    private static Map<String, String> majors(HostFacts f) {
        Map<String, String> out = new LinkedHashMap<>();
        boolean character = false;
        for (String line : f.files().getOrDefault("/proc/devices", "").split("\n")) {
            String l = line.strip();
            if (l.startsWith("Character devices")) {
                character = true;
            } else if (l.startsWith("Block devices")) {
                character = false;
            } else if (character && l.matches("\\d+ \\S+")) {
                String[] p = l.split(" ");
                out.put(p[0], p[1]);
            }
        }
        return out;
    }

    /** Whether a cgroup rule's major is a GPU driver's: from /proc/devices, else DRM's 226 and NVIDIA's 195. */
    boolean gpuMajor(String major) {
        String name = majors.get(major);
        if (name != null) {
            return name.equals("drm") || name.startsWith("nvidia") || name.equals("kfd");
        }
        return major.equals("226") || major.equals("195");
    }
}
