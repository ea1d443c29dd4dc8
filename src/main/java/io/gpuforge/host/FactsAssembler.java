package io.gpuforge.host;

import io.gpuforge.domain.BootSetup;
import io.gpuforge.domain.HostFacts;
import io.gpuforge.domain.HostSummary;
import io.gpuforge.domain.IommuState;
import io.gpuforge.domain.ModprobeConfig;
import io.gpuforge.domain.PciAddress;
import io.gpuforge.domain.PciDevice;
import io.gpuforge.domain.PciInventory;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Turns one probe stream into {@link HostFacts}. Pure: no I/O beyond the optional pci.ids names. */
final class FactsAssembler {

    private static final Pattern REMAP_OFF = Pattern.compile(
            "(irq|interrupt) remapping (was |is being |is )?disabled|failed to enable (irq|interrupt) remapping"
            + "|not enabling interrupt remapping|irq remapping doesn.t support x2apic");
    private static final Pattern GRUB_VAR = Pattern.compile("^\\s*(GRUB_CMDLINE_LINUX(?:_DEFAULT)?)=(.*)$");

    private final ProbeStream s;
    private final List<String> unknowns = new ArrayList<>();

    FactsAssembler(ProbeStream s) {
        this.s = s;
    }

    HostFacts assemble(String source) {
        Map<String, String> links = links();
        PciInventory pci = inventory(links);
        int groups = s.groups.size();
        boolean groupsDir = s.exists.contains("/sys/kernel/iommu_groups");
        IommuState iommu = groups > 0 ? IommuState.ENABLED
                : groupsDir || !s.devices.isEmpty() ? IommuState.DISABLED : IommuState.UNKNOWN;
        boolean tables = s.exists.contains("/sys/firmware/acpi/tables");
        Optional<Boolean> dmar = tables ? Optional.of(s.exists.contains("/sys/firmware/acpi/tables/DMAR")) : Optional.empty();
        Optional<Boolean> ivrs = tables ? Optional.of(s.exists.contains("/sys/firmware/acpi/tables/IVRS")) : Optional.empty();
        if (!tables) {
            unknowns.add("ACPI tables (DMAR/IVRS): /sys/firmware/acpi/tables not readable");
        }
        HostFacts.IommuReason reason;
        if (groups > 0) {
            reason = HostFacts.IommuReason.ACTIVE;
        } else if (tables && !dmar.orElse(false) && !ivrs.orElse(false)) {
            reason = HostFacts.IommuReason.FIRMWARE;
        } else if (dmar.orElse(false) || ivrs.orElse(false)) {
            reason = HostFacts.IommuReason.KERNEL;
        } else {
            reason = HostFacts.IommuReason.UNKNOWN;
        }
        HostSummary summary = HostSummaryReader.summarize(rel -> Optional.ofNullable(s.files.get("/" + rel)),
                s.cpus, iommu, groups, () -> "unknown");
        List<String> dmesg = dmesg();
        Map<String, String> configFiles = new LinkedHashMap<>();
        s.files.forEach((path, content) -> {
            if (path.startsWith("/etc/modprobe.d/") || path.startsWith("/etc/modules")) {
                configFiles.put(path, content);
            }
        });
        ModprobeConfig modprobe = ModprobeParser.parse(configFiles);
        HostTopology topology = new HostTopology(s, links, unknowns::add);
        return new HostFacts(source, summary, file("/proc/cmdline").map(String::strip), boot(),
                dmar, ivrs, iommu, reason, interruptRemapping(dmesg), pci, loadedModules(), modprobe, initramfs(),
                dmesg, topology.managementDevices(), topology.rootDevices(), s.exists.contains("/etc/pve"), s.files,
                s.exists, unknowns);
    }

    private Optional<String> file(String path) {
        return Optional.ofNullable(s.files.get(path));
    }

    /** Link path (root prefix removed) → target, from the {@code ls -ld} lines. */
    private Map<String, String> links() {
        Map<String, String> out = new LinkedHashMap<>();
        String root = s.root.equals("/") ? "" : s.root;
        for (String line : s.links) {
            int arrow = line.indexOf(" -> ");
            if (arrow < 0) {
                continue;
            }
            String left = line.substring(0, arrow);
            int slash = left.indexOf(" /");
            if (slash < 0) {
                continue;
            }
            String path = left.substring(slash + 1);
            if (!root.isEmpty() && path.startsWith(root)) {
                path = path.substring(root.length());
            }
            out.put(path, line.substring(arrow + 4).strip());
        }
        return out;
    }

    private static String base(String target) {
        String t = target.endsWith("/") ? target.substring(0, target.length() - 1) : target;
        return t.substring(t.lastIndexOf('/') + 1);
    }

    private PciInventory inventory(Map<String, String> links) {
        Map<String, String> lspciNames = lspciNames();
        Map<String, String> idNames = pciIdsNames();
        Map<String, Integer> groupOf = new LinkedHashMap<>();
        s.groups.forEach((g, members) -> members.forEach(m -> groupOf.put(m, g)));
        List<PciDevice> out = new ArrayList<>();
        for (Map.Entry<String, Map<String, List<String>>> e : s.devices.entrySet()) {
            String addr = e.getKey();
            Map<String, List<String>> a = e.getValue();
            String prefix = "/sys/bus/pci/devices/" + addr + "/";
            PciAddress address;
            try {
                address = PciAddress.parse(addr);
            } catch (IllegalArgumentException ex) {
                unknowns.add("PCI entry '" + addr + "' is not an address; skipped");
                continue;
            }
            String vendor = hex(one(a, "vendor"));
            String device = hex(one(a, "device"));
            String cls = one(a, "class");
            if (vendor == null || device == null || cls == null) {
                unknowns.add("PCI device " + addr + ": vendor, device or class unreadable; skipped");
                continue;
            }
            Optional<String> driver = Optional.ofNullable(links.get(prefix + "driver")).map(FactsAssembler::base);
            Integer group = groupOf.get(addr);
            if (group == null && links.containsKey(prefix + "iommu_group")) {
                group = parseIntOrNull(base(links.get(prefix + "iommu_group")));
            }
            Optional<String> name = Optional.ofNullable(lspciNames.get(addr))
                    .or(() -> Optional.ofNullable(idNames.get(vendor + ":" + device)));
            List<Long> bars = new ArrayList<>();
            Optional<Long> rom = Optional.empty();
            List<String> resources = a.getOrDefault("resource", List.of());
            for (int i = 0; i < resources.size() && i < 7; i++) {
                long size = resourceSize(resources.get(i));
                if (i < 6) {
                    bars.add(size);
                } else if (size > 0) {
                    rom = Optional.of(size);
                }
            }
            String override = one(a, "driver_override");
            PciDevice.Details details = new PciDevice.Details(
                    Optional.ofNullable(hex(one(a, "subsystem_vendor"))), Optional.ofNullable(hex(one(a, "subsystem_device"))),
                    override == null || override.equals("(null)") ? Optional.empty() : Optional.of(override),
                    Optional.ofNullable(one(a, "boot_vga")).map(v -> v.strip().equals("1")),
                    Optional.ofNullable(one(a, "reset_method")).map(v -> List.of(v.strip().split("\\s+"))).orElse(List.of()),
                    Optional.ofNullable(one(a, "power_state")), optInt(one(a, "sriov_totalvfs")),
                    optInt(one(a, "sriov_numvfs")),
                    Optional.ofNullable(links.get(prefix + "physfn")).map(FactsAssembler::base)
                            .filter(PciAddress::looksLike).map(PciAddress::parse),
                    bars, a.containsKey("rebar"), rom,
                    optInt(one(a, "numa_node")).stream().filter(n -> n >= 0)
                            .mapToObj(OptionalInt::of).findFirst().orElse(OptionalInt.empty()),
                    Optional.ofNullable(one(a, "current_link_speed")), optInt(one(a, "current_link_width")),
                    Optional.ofNullable(one(a, "d3cold_allowed")).map(v -> v.strip().equals("1")), List.of());
            try {
                out.add(new PciDevice(address, vendor, device, cls, name, driver,
                        group == null ? OptionalInt.empty() : OptionalInt.of(group), details));
            } catch (IllegalArgumentException ex) {
                unknowns.add("PCI device " + addr + ": " + ex.getMessage() + "; skipped");
            }
        }
        return PciInventory.fromDevices(out);
    }

    /** Names the probe looked up in the host's pci.ids: "vvvv:dddd Vendor Device". */
    private Map<String, String> pciIdsNames() {
        Map<String, String> names = new LinkedHashMap<>();
        String out = s.commands.get("pciids");
        if (out != null) {
            for (String line : out.split("\n")) {
                if (line.length() > 10 && line.charAt(9) == ' ') {
                    names.put(line.substring(0, 9), line.substring(10).strip());
                }
            }
        }
        return names;
    }

    /** Names from {@code lspci -Dnnmm}: "Vendor Device" with the bracketed ids removed. */
    private Map<String, String> lspciNames() {
        Map<String, String> names = new LinkedHashMap<>();
        String out = s.commands.get("lspci -Dnnmm");
        if (out == null) {
            return names;
        }
        Pattern q = Pattern.compile("\"([^\"]*)\"");
        for (String line : out.split("\n")) {
            String[] parts = line.split(" ", 2);
            if (parts.length < 2) {
                continue;
            }
            Matcher m = q.matcher(parts[1]);
            List<String> fields = new ArrayList<>();
            while (m.find()) {
                fields.add(m.group(1).replaceAll("\\s*\\[[0-9a-f]{4}\\]$", "").strip());
            }
            if (fields.size() >= 3) {
                names.put(parts[0], (fields.get(1) + " " + fields.get(2)).strip());
            }
        }
        return names;
    }

    private static long resourceSize(String line) {
        String[] p = line.strip().split("\\s+");
        if (p.length < 2) {
            return 0;
        }
        try {
            long start = Long.parseUnsignedLong(p[0].replace("0x", ""), 16);
            long end = Long.parseUnsignedLong(p[1].replace("0x", ""), 16);
            return (start == 0 && end == 0) || end < start ? 0 : end - start + 1;
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private static String one(Map<String, List<String>> a, String key) {
        List<String> v = a.get(key);
        return v == null || v.isEmpty() ? null : v.get(0).strip();
    }

    private static String hex(String v) {
        if (v == null) {
            return null;
        }
        String h = v.toLowerCase(Locale.ROOT).replace("0x", "");
        return h.matches("[0-9a-f]{4}") ? h : null;
    }

    private static OptionalInt optInt(String v) {
        Integer i = v == null ? null : parseIntOrNull(v);
        return i == null ? OptionalInt.empty() : OptionalInt.of(i);
    }

    private static Integer parseIntOrNull(String v) {
        try {
            return Integer.parseInt(v.strip());
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private BootSetup boot() {
        BootSetup.Mode mode = s.exists.contains("/sys/firmware/efi") ? BootSetup.Mode.UEFI
                : s.exists.contains("/sys/firmware/acpi/tables") ? BootSetup.Mode.LEGACY : BootSetup.Mode.UNKNOWN;
        Optional<String> pbt = Optional.ofNullable(s.commands.get("proxmox-boot-tool status"))
                .or(() -> file("/gpuforge/proxmox-boot-tool-status.txt"));
        Optional<String> kernelCmdline = file("/etc/kernel/cmdline").map(String::strip);
        Map<String, String> grubVars = new LinkedHashMap<>();
        List<String> grubFiles = new ArrayList<>();
        grubFiles.add("/etc/default/grub");
        s.files.keySet().stream().filter(p -> p.startsWith("/etc/default/grub.d/")).sorted().forEach(grubFiles::add);
        for (String f : grubFiles) {
            file(f).ifPresent(c -> {
                for (String line : c.split("\n")) {
                    Matcher m = GRUB_VAR.matcher(line);
                    if (m.matches()) {
                        grubVars.put(m.group(1), shellValue(m.group(2)));
                    }
                }
            });
        }
        BootSetup.Loader loader;
        Optional<String> detail = Optional.empty();
        if (pbt.isPresent() && pbt.get().contains("configured with: uefi")) {
            loader = BootSetup.Loader.SYSTEMD_BOOT;
            detail = Optional.of("proxmox-boot-tool (systemd-boot)");
        } else if (pbt.isPresent() && pbt.get().contains("configured with: grub")) {
            loader = BootSetup.Loader.GRUB;
            detail = Optional.of("proxmox-boot-tool (GRUB)");
        } else if (kernelCmdline.isPresent() && (s.exists.contains("/boot/efi/loader/loader.conf")
                || s.exists.contains("/boot/loader/loader.conf") || s.exists.contains("/usr/sbin/proxmox-boot-tool"))) {
            loader = BootSetup.Loader.SYSTEMD_BOOT;
        } else if (file("/etc/default/grub").isPresent() || s.exists.contains("/boot/grub")
                || s.exists.contains("/boot/grub2")) {
            loader = BootSetup.Loader.GRUB;
        } else {
            loader = BootSetup.Loader.UNKNOWN;
            unknowns.add("bootloader: neither /etc/default/grub nor systemd-boot configuration found");
        }
        return new BootSetup(mode, loader, Optional.ofNullable(grubVars.get("GRUB_CMDLINE_LINUX_DEFAULT")),
                Optional.ofNullable(grubVars.get("GRUB_CMDLINE_LINUX")), kernelCmdline, detail);
    }

    /** The value of a shell assignment: "a b", 'a b' or bare. */
    static String shellValue(String raw) {
        String v = raw.strip();
        int hash = v.startsWith("\"") || v.startsWith("'") ? -1 : v.indexOf(" #");
        if (hash >= 0) {
            v = v.substring(0, hash).strip();
        }
        if (v.length() >= 2 && (v.charAt(0) == '"' || v.charAt(0) == '\'')) {
            int close = v.indexOf(v.charAt(0), 1);
            v = close > 0 ? v.substring(1, close) : v.substring(1);
        }
        return v;
    }

    private List<String> dmesg() {
        Optional<String> d = Optional.ofNullable(s.commands.get("dmesg")).or(() -> file("/gpuforge/dmesg.txt"));
        if (d.isEmpty() || d.get().isBlank()) {
            unknowns.add("kernel log (dmesg): not readable (needs root on most hosts)");
            return List.of();
        }
        List<String> out = new ArrayList<>();
        Pattern relevant = Pattern.compile("DMAR|AMD-Vi|IOMMU|vfio|remapping|x2apic|BAR \\d+: .*(can.t|fail)|reset",
                Pattern.CASE_INSENSITIVE);
        for (String line : d.get().split("\n")) {
            if (relevant.matcher(line).find() && !line.contains("Adding to iommu group")) {
                out.add(line.strip());
            }
        }
        return out;
    }

    static Optional<Boolean> interruptRemapping(List<String> dmesg) {
        for (String l : dmesg) {
            String x = l.toLowerCase(Locale.ROOT);
            if (REMAP_OFF.matcher(x).find()) {
                return Optional.of(false);
            }
        }
        for (String l : dmesg) {
            String x = l.toLowerCase(Locale.ROOT);
            if (x.contains("enabled irq remapping") || x.contains("interrupt remapping enabled")) {
                return Optional.of(true);
            }
        }
        return Optional.empty();
    }

    private List<String> loadedModules() {
        List<String> out = new ArrayList<>();
        file("/proc/modules").ifPresentOrElse(m -> {
            for (String line : m.split("\n")) {
                String name = line.split(" ", 2)[0].strip();
                if (!name.isEmpty()) {
                    out.add(name);
                }
            }
        }, () -> unknowns.add("loaded modules: /proc/modules not readable"));
        return out;
    }

    private HostFacts.Initramfs initramfs() {
        HostFacts.Initramfs.Tool tool;
        if (s.exists.contains("/usr/sbin/update-initramfs") || s.exists.contains("/etc/initramfs-tools")) {
            tool = HostFacts.Initramfs.Tool.INITRAMFS_TOOLS;
        } else if (s.exists.contains("/usr/bin/dracut") || s.exists.contains("/usr/sbin/dracut")) {
            tool = HostFacts.Initramfs.Tool.DRACUT;
        } else if (s.exists.contains("/usr/bin/mkinitcpio")) {
            tool = HostFacts.Initramfs.Tool.MKINITCPIO;
        } else {
            tool = HostFacts.Initramfs.Tool.UNKNOWN;
            unknowns.add("initramfs tool: none of initramfs-tools, dracut, mkinitcpio found");
        }
        Optional<Boolean> vfio = Optional.ofNullable(s.commands.get("lsinitramfs")).map(o -> o.contains("vfio"));
        return new HostFacts.Initramfs(tool, vfio);
    }

}
