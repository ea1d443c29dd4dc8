package io.gpuforge.demo;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The format checks PVE's schema makes on a new VM's values beyond their types, answered as its 400 with a message
 * per parameter: {@code name} a DNS name, {@code cpu} a built-in CPU model (or {@code custom-…}), {@code ipconfig0}
 * PVE's ip/gw syntax, {@code nameserver} an address list; and the bridges of a simulated node.
 */
final class SimVmChecks {

    /** The built-in CPU models of PVE 8.4 ({@code qemu-server}'s CPUConfig), without the vendor-specific old ones. */
    private static final Set<String> CPU_MODELS = Set.of("host", "kvm64", "qemu64", "max", "x86-64-v2", "x86-64-v2-AES",
            "x86-64-v3", "x86-64-v4", "EPYC", "EPYC-IBPB", "EPYC-Rome", "EPYC-Milan", "EPYC-Genoa", "Skylake-Server",
            "Skylake-Client", "Cascadelake-Server", "Icelake-Server", "SapphireRapids", "Haswell", "Broadwell",
            "SandyBridge", "IvyBridge", "Nehalem", "Westmere", "Penryn", "Conroe", "kvm32", "qemu32", "486", "pentium");
    private static final String DNS_LABEL = "[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?";
    private static final String IPV4 = "(25[0-5]|2[0-4]\\d|1?\\d?\\d)(\\.(25[0-5]|2[0-4]\\d|1?\\d?\\d)){3}";

    private SimVmChecks() {
    }

    static Map<String, String> create(Map<String, String> p) {
        Map<String, String> errors = new TreeMap<>();
        String name = p.get("name");
        if (name != null && !name.matches("(" + DNS_LABEL + "\\.)*" + DNS_LABEL)) {
            errors.put("name", "invalid format - value does not look like a valid DNS name");
        }
        String cpu = p.get("cpu");
        if (cpu != null) {
            String model = cpu.split(",")[0].replaceFirst("^cputype=", "");
            if (!model.startsWith("custom-") && !CPU_MODELS.contains(model)) {
                errors.put("cpu", "Built-in cputype '" + model + "' is not defined (missing 'custom-' prefix?)");
            }
        }
        String ip = p.get("ipconfig0");
        if (ip != null) {
            for (String part : ip.split(",")) {
                boolean ok = part.equals("ip=dhcp") || part.matches("ip=" + IPV4 + "/(3[0-2]|[12]?\\d)")
                        || part.matches("gw=" + IPV4) || part.matches("ip6=.*") || part.matches("gw6=.*");
                if (!ok) {
                    errors.put("ipconfig0", "invalid format - format error ipconfig0: '" + part + "' is not valid");
                }
            }
        }
        String ns = p.get("nameserver");
        if (ns != null) {
            for (String a : ns.split("[ ,;]+")) {
                if (!a.matches(IPV4) && !a.contains(":")) {
                    errors.put("nameserver", "invalid format - value '" + a + "' does not look like a valid address");
                }
            }
        }
        return errors;
    }

    /** Two bridges on every node: the management LAN and a VLAN for GPU workers; and the NIC under them. */
    static List<Object> network(String type) {
        List<Object> out = new ArrayList<>();
        out.add(iface("vmbr0", "bridge", "192.0.2.10/24", "eno1"));
        out.add(iface("vmbr1", "bridge", "", "eno2"));
        if (type == null) {
            out.add(iface("eno1", "eth", "", ""));
            out.add(iface("eno2", "eth", "", ""));
        }
        return out;
    }

    private static Map<String, Object> iface(String name, String type, String cidr, String ports) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("iface", name);
        m.put("type", type);
        m.put("active", 1);
        m.put("autostart", 1);
        if (!cidr.isEmpty()) {
            m.put("cidr", cidr);
        }
        if (!ports.isEmpty()) {
            m.put("bridge_ports", ports);
        }
        return m;
    }
}
