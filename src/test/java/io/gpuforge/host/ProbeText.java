package io.gpuforge.host;

import io.gpuforge.host.probe.HostProbe;

import io.gpuforge.domain.host.HostFacts;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Probe output (format 1) written by hand, the way {@code probe.sh} prints it, for tests of what is read from
 * it. Only what a test adds is in it: everything else is what a host that hides it would give.
 */
public final class ProbeText {

    private final StringBuilder records = new StringBuilder();
    private final Map<Integer, List<String>> groups = new TreeMap<>();
    private final List<String> links = new ArrayList<>();
    private String root = "/";

    /** A sysroot probe: link paths carry this prefix, as {@code ls -ld "$R"/…} prints them. */
    public ProbeText root(String sysroot) {
        this.root = sysroot;
        return this;
    }

    public ProbeText file(String path, String content) {
        return section("@@file " + path, content);
    }

    public ProbeText cmd(String name, String output) {
        return section("@@cmd " + name, output);
    }

    public ProbeText exists(String... paths) {
        for (String p : paths) {
            records.append("@@exists ").append(p).append('\n');
        }
        return this;
    }

    public ProbeText cpus(int n) {
        records.append("@@cpus ").append(n).append('\n');
        return this;
    }

    /** A PCI function with its sysfs attributes ({@code "vendor=0x10de"}, one {@code resource=} per BAR). */
    public ProbeText device(String address, String... attributes) {
        records.append("@@dev ").append(address).append('\n');
        for (String a : attributes) {
            records.append(a).append('\n');
        }
        records.append("@@end\n");
        return this;
    }

    /** A PCI function with its ids and class, in an IOMMU group (or none when {@code group} &lt; 0), bound to a driver (or not, when null). */
    public ProbeText gpu(String address, String vendor, String device, String cls, int group, String driver) {
        device(address, "vendor=0x" + vendor, "device=0x" + device, "class=0x" + cls);
        if (group >= 0) {
            groups.computeIfAbsent(group, g -> new ArrayList<>()).add(address);
        }
        if (driver != null) {
            link("/sys/bus/pci/devices/" + address + "/driver", "../../../bus/pci/drivers/" + driver);
        }
        return this;
    }

    public ProbeText group(int id, String... members) {
        groups.computeIfAbsent(id, g -> new ArrayList<>()).addAll(List.of(members));
        return this;
    }

    /** A symbolic link as {@code ls -ld} lists it. */
    public ProbeText link(String path, String target) {
        links.add("lrwxrwxrwx 1 root root 0 Mar  3 10:00 " + (root.equals("/") ? "" : root) + path + " -> " + target);
        return this;
    }

    public ProbeText dm(String name, String mapperName) {
        records.append("@@dm ").append(name).append(' ').append(mapperName).append('\n');
        return this;
    }

    public String text() {
        StringBuilder out = new StringBuilder("@@gpuforge-probe 1\n@@meta uid=0 root=").append(root).append('\n');
        out.append(records);
        groups.forEach((g, members) -> out.append("@@group ").append(g).append(' ').append(String.join(" ", members))
                .append('\n'));
        out.append("@@links\n");
        links.forEach(l -> out.append('|').append(l).append('\n'));
        out.append("@@end\n@@done\n");
        return out.toString();
    }

    /** The facts a probe of this output gives. */
    public HostFacts facts() throws ProbeException {
        return HostProbe.fromOutput(text(), "probe-text");
    }

    public ProbeStream stream() throws ProbeException {
        return ProbeStream.parse(text());
    }

    private ProbeText section(String header, String content) {
        records.append(header).append('\n');
        String body = content.endsWith("\n") ? content.substring(0, content.length() - 1) : content;
        if (!content.isEmpty()) {
            for (String line : body.split("\n", -1)) {
                records.append('|').append(line).append('\n');
            }
        }
        records.append("@@end\n");
        return this;
    }
}
