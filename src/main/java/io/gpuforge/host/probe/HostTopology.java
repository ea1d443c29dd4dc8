package io.gpuforge.host.probe;

import io.gpuforge.host.ProbeStream;

import io.gpuforge.domain.pci.PciAddress;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Which PCI functions the host cannot lose: the NIC behind the default route (through bridges, bonds and
 * VLANs) and the storage controller behind the root file system (through partitions, LVM/dm and ZFS).
 * Read from a probe stream's files, links and commands.
 */
public final class HostTopology {

    private static final Pattern PCI_IN_PATH = Pattern.compile("([0-9a-f]{4}:[0-9a-f]{2}:[0-9a-f]{2}\\.[0-7])");

    private final ProbeStream s;
    private final Map<String, String> links;
    private final Consumer<String> unknowns;

    HostTopology(ProbeStream s, Map<String, String> links, Consumer<String> unknowns) {
        this.s = s;
        this.links = links;
        this.unknowns = unknowns;
    }

    private Optional<String> file(String path) {
        return Optional.ofNullable(s.files.get(path));
    }

    /** PCI functions behind the default route: through bridges (vmbr0), bonds and VLANs to the NICs. */
    List<PciAddress> managementDevices() {
        Optional<String> route = file("/proc/net/route");
        if (route.isEmpty()) {
            unknowns.accept("management interface: /proc/net/route not readable");
            return List.of();
        }
        Set<PciAddress> out = new LinkedHashSet<>();
        for (String line : route.get().split("\n")) {
            String[] f = line.strip().split("\\s+");
            if (f.length >= 8 && f[1].equals("00000000") && f[7].equals("00000000")) {
                resolveNet(f[0], links, out, 0);
            }
        }
        return new ArrayList<>(out);
    }

    private void resolveNet(String iface, Map<String, String> links, Set<PciAddress> out, int depth) {
        if (depth > 6) {
            return;
        }
        String dev = links.get("/sys/class/net/" + iface + "/device");
        if (dev != null) {
            Optional<PciAddress> pci = lastPci(dev);
            // a virtio NIC: the device is virtioN, whose own link names the PCI function it sits on
            Matcher virtio = VIRTIO.matcher(dev);
            if (pci.isEmpty() && virtio.find()) {
                pci = Optional.ofNullable(links.get("/sys/bus/virtio/devices/" + virtio.group(1)))
                        .flatMap(HostTopology::lastPci);
            }
            pci.ifPresent(out::add);
            return;
        }
        String brif = "/sys/class/net/" + iface + "/brif/";
        String lower = "/sys/class/net/" + iface + "/lower_";
        for (String path : links.keySet()) {
            if (path.startsWith(brif)) {
                resolveNet(path.substring(brif.length()), links, out, depth + 1);
            } else if (path.startsWith(lower)) {
                resolveNet(path.substring(lower.length()), links, out, depth + 1);
            }
        }
    }

    /** PCI functions behind the root file system: partition → disk → controller, through LVM/dm and ZFS. */
    List<PciAddress> rootDevices() {
        Optional<String> mounts = file("/proc/mounts");
        if (mounts.isEmpty()) {
            unknowns.accept("root file system: /proc/mounts not readable");
            return List.of();
        }
        String source = null;
        String type = null;
        for (String line : mounts.get().split("\n")) {
            String[] f = line.split("\\s+");
            if (f.length >= 3 && f[1].equals("/") && !f[0].equals("rootfs")) {
                source = f[0];
                type = f[2];
            }
        }
        if (source == null) {
            unknowns.accept("root file system: no / entry in /proc/mounts");
            return List.of();
        }
        List<String> blockNames = new ArrayList<>();
        if ("zfs".equals(type)) {
            String pool = source.split("/")[0];
            Optional<String> status = Optional.ofNullable(s.commands.get("zpool status -PL"))
                    .or(() -> file("/gpuforge/zpool-status.txt"));
            if (status.isEmpty()) {
                unknowns.accept("root file system: ZFS pool " + pool + " members unknown (zpool status not available)");
                return List.of();
            }
            boolean inPool = false;
            for (String line : status.get().split("\n")) {
                String t = line.strip();
                if (t.startsWith("pool:")) {
                    inPool = t.substring(5).strip().equals(pool);
                } else if (inPool && t.startsWith("/dev/")) {
                    blockNames.add(t.split("\\s+")[0].substring("/dev/".length()));
                }
            }
        } else if (source.startsWith("/dev/mapper/")) {
            String dmName = source.substring("/dev/mapper/".length());
            s.deviceMapperNames.forEach((dm, name) -> {
                if (name.equals(dmName)) {
                    blockNames.add(dm);
                }
            });
        } else if (source.startsWith("/dev/")) {
            blockNames.add(source.substring("/dev/".length()));
        }
        Set<PciAddress> out = new LinkedHashSet<>();
        for (String b : blockNames) {
            resolveBlock(b, links, out, 0);
        }
        if (out.isEmpty()) {
            unknowns.accept("root file system: the controller of " + source + " could not be traced");
        }
        return new ArrayList<>(out);
    }

    private void resolveBlock(String name, Map<String, String> links, Set<PciAddress> out, int depth) {
        if (depth > 6) {
            return;
        }
        String slaves = "/sys/class/block/" + name + "/slaves/";
        boolean hadSlaves = false;
        for (String path : links.keySet()) {
            if (path.startsWith(slaves)) {
                hadSlaves = true;
                resolveBlock(path.substring(slaves.length()), links, out, depth + 1);
            }
        }
        if (!hadSlaves) {
            String target = links.get("/sys/class/block/" + name);
            if (target != null) {
                lastPci(target).ifPresent(out::add);
            }
        }
    }

    private static final Pattern VIRTIO = Pattern.compile("(virtio[0-9]+)/?$");

    private static Optional<PciAddress> lastPci(String path) {
        Matcher m = PCI_IN_PATH.matcher(path);
        String last = null;
        while (m.find()) {
            last = m.group(1);
        }
        return Optional.ofNullable(last).map(PciAddress::parse);
    }
}
