package io.gpuforge.share;

import io.gpuforge.domain.host.HostFacts;
import io.gpuforge.domain.pci.PciDevice;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** What the probe read that sharing needs, each fact empty when the host did not show it. */
final class ShareFacts {

    static final String NVIDIA_VERSION = "/proc/driver/nvidia/version";
    static final String PVE_CFG = "/usr/share/perl5/PVE/pvecfg.pm";
    private static final Pattern NVIDIA = Pattern.compile("Kernel Module(?: for \\S+)?\\s+(\\d+\\.\\d+(?:\\.\\d+)?)");
    private static final Pattern PVE = Pattern.compile("sub version \\{\\s*return '(\\d+\\.\\d+(?:\\.\\d+)?)'");
    private static final Pattern MINOR = Pattern.compile("Device Minor:\\s*(\\d+)");

    private final HostFacts f;

    ShareFacts(HostFacts f) {
        this.f = f;
    }

    HostFacts host() {
        return f;
    }

    /** The vendor of a GPU by its PCI vendor id. */
    static Optional<String> vendor(PciDevice gpu) {
        return switch (String.valueOf(gpu.vendorId()).toLowerCase(java.util.Locale.ROOT)) {
            case "10de" -> Optional.of("NVIDIA");
            case "1002" -> Optional.of("AMD");
            case "8086" -> Optional.of("Intel");
            default -> Optional.empty();
        };
    }

    /** The host driver's version: NVIDIA's kernel module, or the in-kernel driver with the kernel it ships in. */
    Optional<String> driverVersion(PciDevice gpu) {
        Optional<String> driver = gpu.driver();
        if (driver.isEmpty()) {
            return Optional.empty();
        }
        if (driver.get().equals("nvidia")) {
            return Optional.ofNullable(f.files().get(NVIDIA_VERSION)).map(NVIDIA::matcher).filter(Matcher::find)
                    .map(m -> m.group(1));
        }
        return f.summary().kernel().map(k -> "in-kernel " + driver.get() + " (kernel " + k + ")");
    }

    /** The Proxmox VE version ({@code 8.2.4}) from pve-manager's own file. */
    Optional<String> proxmoxVersion() {
        return Optional.ofNullable(f.files().get(PVE_CFG)).map(PVE::matcher).filter(Matcher::find).map(m -> m.group(1));
    }

    /** Whether the Proxmox version knows {@code devN} (8.1 and later); empty when the version is unknown. */
    Optional<Boolean> knowsDevN() {
        return proxmoxVersion().map(v -> {
            String[] p = v.split("\\.");
            int major = Integer.parseInt(p[0]);
            int minor = p.length > 1 ? Integer.parseInt(p[1]) : 0;
            return major > 8 || (major == 8 && minor >= 1);
        });
    }

    /** The numeric id of a group of the host ({@code render}, {@code video}). */
    OptionalInt gid(String group) {
        String etc = f.files().getOrDefault("/etc/group", "");
        for (String line : etc.split("\n")) {
            String[] p = line.split(":", -1);
            if (p.length >= 3 && p[0].equals(group) && p[2].matches("\\d+")) {
                return OptionalInt.of(Integer.parseInt(p[2]));
            }
        }
        return OptionalInt.empty();
    }

    /** NVIDIA's minor number of a GPU ({@code /dev/nvidiaN}), from the driver's own information file. */
    OptionalInt nvidiaMinor(PciDevice gpu) {
        String info = f.files().get("/proc/driver/nvidia/gpus/" + gpu.address() + "/information");
        if (info == null) {
            return OptionalInt.empty();
        }
        Matcher m = MINOR.matcher(info);
        return m.find() ? OptionalInt.of(Integer.parseInt(m.group(1))) : OptionalInt.empty();
    }

    /** The DRM nodes of a PCI function ({@code card0}, {@code renderD128}), from sysfs. */
    TreeSet<String> drmNodes(PciDevice gpu) {
        String prefix = "/sys/bus/pci/devices/" + gpu.address() + "/drm/";
        TreeSet<String> out = new TreeSet<>();
        for (String p : f.present()) {
            if (p.startsWith(prefix) && p.indexOf('/', prefix.length()) < 0) {
                out.add(p.substring(prefix.length()));
            }
        }
        return out;
    }

    boolean exists(String path) {
        return f.present().contains(path);
    }

    /** NVIDIA's capability nodes present on the host ({@code /dev/nvidia-caps/nvidia-cap1}…). */
    TreeSet<String> nvidiaCaps() {
        TreeSet<String> out = new TreeSet<>();
        f.present().stream().filter(p -> p.startsWith("/dev/nvidia-caps/")).forEach(out::add);
        return out;
    }
}
