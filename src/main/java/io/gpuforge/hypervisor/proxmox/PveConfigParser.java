package io.gpuforge.hypervisor.proxmox;

import io.gpuforge.domain.vm.Firmware;
import io.gpuforge.domain.pci.PciAddress;
import io.gpuforge.domain.vm.VmDetails;
import io.gpuforge.domain.vm.VmDisk;
import io.gpuforge.domain.vm.VmNic;
import io.gpuforge.domain.vm.VmSpec;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads a PVE VM configuration ({@code GET …/config}: key → value, as {@code qm config} prints it) into
 * {@link VmDetails}. What PVE leaves out has PVE's default: SeaBIOS, one socket, one core, 512 MiB. Disks are
 * {@code scsiN}, {@code virtioN}, {@code sataN}, {@code ideN}, {@code efidisk0} and {@code tpmstate0} (never
 * {@code unusedN}); a {@code hostpciN} is a resource mapping ({@code mapping=gpu-a}, resolved to that node's PCI
 * paths) or raw ids ({@code 0000:01:00} is every function of the slot, {@code 01:00.0} one function,
 * {@code a;b} several). Pure: the resolvers say what a mapping and a slot stand for on the VM's node.
 */
public final class PveConfigParser {

    private static final Pattern DISK = Pattern.compile("(scsi|virtio|sata|ide)(\\d+)|efidisk0|tpmstate0");
    private static final Pattern NET = Pattern.compile("net(\\d+)");
    private static final Pattern HOSTPCI = Pattern.compile("hostpci(\\d+)");
    private static final Pattern PCI_ID = Pattern.compile(
            "^(?:([0-9a-fA-F]{4}):)?([0-9a-fA-F]{2}):([0-9a-fA-F]{2})(?:\\.([0-7]))?$");
    private static final Pattern SIZE = Pattern.compile("^(\\d+(?:\\.\\d+)?)([KMGT]?)$");
    private static final Set<String> NIC_MODELS = Set.of("e1000", "e1000-82540em", "e1000-82544gc", "e1000-82545em",
            "e1000e", "i82551", "i82557b", "i82559er", "ne2k_isa", "ne2k_pci", "pcnet", "rtl8139", "virtio", "vmxnet3");

    /** One {@code hostpciN}: the mapping it names or the raw PCI ids, and its flags. */
    public record HostPci(String key, Optional<String> mapping, List<String> ids, boolean pcie, boolean primaryGpu) {
        public HostPci {
            ids = List.copyOf(ids);
        }
    }

    /**
     * What the configuration refers to on its node.
     *
     * @param mappingPaths a mapping id → its PCI paths on the VM's node ({@code 0000:01:00}); empty when unknown
     * @param slotFunctions function 0 of a slot → every function of that slot on the node; empty when unknown
     *                      (then function 0 alone stands for the slot)
     */
    public record Resolvers(Function<String, List<String>> mappingPaths,
                            Function<PciAddress, List<PciAddress>> slotFunctions) {
        public static Resolvers none() {
            return new Resolvers(m -> List.of(), a -> List.of());
        }
    }

    private PveConfigParser() {
    }

    public static VmDetails details(Map<String, String> cfg, Resolvers resolvers) {
        Optional<String> machine = Optional.ofNullable(cfg.get("machine")).map(PveConfigParser::machineType)
                .filter(m -> !m.isEmpty());
        String bios = cfg.getOrDefault("bios", "seabios");
        Firmware firmware = bios.equals("ovmf") ? Firmware.UEFI : bios.equals("seabios") ? Firmware.BIOS : Firmware.UNKNOWN;
        List<PciAddress> devices = new ArrayList<>();
        List<String> mappings = new ArrayList<>();
        for (HostPci h : hostPcis(cfg)) {
            h.mapping().ifPresent(mappings::add);
            List<String> ids = h.mapping().map(resolvers.mappingPaths()).orElse(h.ids());
            for (String id : ids) {
                devices.addAll(addresses(id, resolvers.slotFunctions()));
            }
        }
        return new VmDetails(machine, firmware, integer(cfg.get("sockets"), 1), integer(cfg.get("cores"), 1),
                memoryMiB(cfg) << 20, disks(cfg), nics(cfg), devices.stream().sorted().distinct().toList(),
                mappings.stream().distinct().toList(), flag(cfg.get("balloon")), flag(cfg.get("agent")),
                Optional.ofNullable(cfg.get("ostype")));
    }

    /** The machine type of {@code q35}, {@code pc-q35-8.1+pve0}, {@code q35,viommu=intel}, {@code type=q35}. */
    static String machineType(String value) {
        Map<String, String> kv = properties(value);
        return kv.getOrDefault("type", value.split(",", 2)[0].contains("=") ? "" : value.split(",", 2)[0]);
    }

    /** {@code memory: 4096} or PVE 8's {@code memory: current=4096}; 512 when absent. */
    static long memoryMiB(Map<String, String> cfg) {
        String m = cfg.get("memory");
        if (m == null) {
            return 512;
        }
        String current = properties(m).getOrDefault("current", m.split(",", 2)[0]);
        return integer(current, 512);
    }

    /** Ballooning and the agent: {@code 0} is off; {@code 1}, {@code enabled=1,…} or a balloon size is on. */
    private static Optional<Boolean> flag(String value) {
        if (value == null) {
            return Optional.empty();
        }
        String first = value.split(",", 2)[0];
        String enabled = properties(value).getOrDefault("enabled", first.contains("=") ? "1" : first);
        return Optional.of(!enabled.equals("0"));
    }

    public static List<HostPci> hostPcis(Map<String, String> cfg) {
        List<HostPci> out = new ArrayList<>();
        for (String key : sortedKeys(cfg, HOSTPCI)) {
            String v = cfg.get(key);
            Map<String, String> kv = properties(v);
            String first = v.split(",", 2)[0];
            String host = kv.getOrDefault("host", first.contains("=") ? "" : first);
            List<String> ids = new ArrayList<>();
            for (String id : host.split(";")) {
                if (!id.isBlank()) {
                    ids.add(id.strip());
                }
            }
            out.add(new HostPci(key, Optional.ofNullable(kv.get("mapping")), ids, "1".equals(kv.get("pcie")),
                    "1".equals(kv.get("x-vga"))));
        }
        return out;
    }

    /** The functions a PCI id stands for: {@code 0000:01:00.1} itself, {@code 01:00} every function of the slot. */
    public static List<PciAddress> addresses(String id, Function<PciAddress, List<PciAddress>> slotFunctions) {
        Matcher m = PCI_ID.matcher(id.strip());
        if (!m.matches()) {
            return List.of();
        }
        int domain = m.group(1) == null ? 0 : Integer.parseInt(m.group(1), 16);
        PciAddress first = new PciAddress(domain, Integer.parseInt(m.group(2), 16), Integer.parseInt(m.group(3), 16),
                m.group(4) == null ? 0 : Integer.parseInt(m.group(4)));
        if (m.group(4) != null) {
            return List.of(first);
        }
        List<PciAddress> all = slotFunctions.apply(first);
        return all.isEmpty() ? List.of(first) : all;
    }

    static List<VmDisk> disks(Map<String, String> cfg) {
        List<VmDisk> out = new ArrayList<>();
        for (String key : sortedKeys(cfg, DISK)) {
            String v = cfg.get(key);
            Map<String, String> kv = properties(v);
            String first = v.split(",", 2)[0];
            String source = kv.getOrDefault("file", first.contains("=") ? "" : first);
            out.add(new VmDisk(key, source, size(kv.get("size")), "cdrom".equals(kv.get("media"))));
        }
        return out;
    }

    static List<VmNic> nics(Map<String, String> cfg) {
        List<VmNic> out = new ArrayList<>();
        for (String key : sortedKeys(cfg, NET)) {
            String model = "";
            String mac = "";
            for (String part : cfg.get(key).split(",")) {
                int eq = part.indexOf('=');
                String k = eq < 0 ? part.strip() : part.substring(0, eq).strip();
                String val = eq < 0 ? "" : part.substring(eq + 1).strip();
                if (NIC_MODELS.contains(k) && model.isEmpty()) {
                    model = k;
                    mac = val;
                } else if (k.equals("model")) {
                    model = val;
                } else if (k.equals("macaddr")) {
                    mac = val;
                }
            }
            String bridge = properties(cfg.get(key)).get("bridge");
            out.add(new VmNic(key, model, mac.toUpperCase(Locale.ROOT), bridge == null ? VmSpec.USER_NETWORK : bridge));
        }
        return out;
    }

    /** PVE's sizes ({@code 32G}, {@code 4M}, {@code 528K}, {@code 1.5T}, bare bytes) in bytes. */
    public static OptionalLong size(String s) {
        Matcher m = s == null ? null : SIZE.matcher(s.strip().toUpperCase(Locale.ROOT));
        if (m == null || !m.matches()) {
            return OptionalLong.empty();
        }
        int shift = "KMGT".indexOf(m.group(2).isEmpty() ? "_" : m.group(2)) * 10 + 10;
        double n = Double.parseDouble(m.group(1));
        return OptionalLong.of(m.group(2).isEmpty() ? (long) n : (long) (n * (1L << shift)));
    }

    /**
     * The configuration as PVE keeps it: the description as {@code #} comment lines, then {@code key: value}
     * lines in the order {@code qm config} prints them.
     */
    public static String document(Map<String, String> cfg) {
        StringBuilder out = new StringBuilder();
        String description = cfg.get("description");
        if (description != null) {
            for (String line : description.split("\n", -1)) {
                out.append('#').append(line).append('\n');
            }
        }
        new TreeMap<>(cfg).forEach((k, v) -> {
            if (!k.equals("description") && !k.equals("digest")) {
                out.append(k).append(": ").append(v).append('\n');
            }
        });
        return out.toString();
    }

    /** A PVE property string {@code node=pve1,path=0000:01:00} as a map; parts without '=' are left out. */
    public static Map<String, String> properties(String s) {
        Map<String, String> out = new LinkedHashMap<>();
        for (String part : s.split(",")) {
            int eq = part.indexOf('=');
            if (eq > 0) {
                out.put(part.substring(0, eq).strip(), part.substring(eq + 1).strip());
            }
        }
        return out;
    }

    /** Keys matching {@code p} in a stable order: by name, then by index ({@code scsi2} before {@code scsi10}). */
    private static List<String> sortedKeys(Map<String, String> cfg, Pattern p) {
        Set<String> keys = new LinkedHashSet<>();
        cfg.keySet().stream().filter(k -> p.matcher(k).matches()).forEach(keys::add);
        return keys.stream().sorted(Comparator.comparing((String k) -> k.replaceAll("\\d+$", ""))
                .thenComparingInt(k -> integer(k.replaceAll("^\\D+", ""), 0))).toList();
    }

    private static int integer(String s, int fallback) {
        try {
            return s == null ? fallback : Integer.parseInt(s.strip());
        } catch (NumberFormatException e) {
            return fallback;
        }
    }
}
