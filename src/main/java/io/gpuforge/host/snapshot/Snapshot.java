package io.gpuforge.host.snapshot;

import io.gpuforge.host.probe.HostProbe;
import io.gpuforge.host.HostShell;
import io.gpuforge.host.ProbeException;
import io.gpuforge.host.ProbeStream;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * A support snapshot: one probe's output laid out as a sysroot (the files, the sysfs attributes and
 * links the probe reads), packed as {@code .tar.gz}. {@code --sysroot} reads it back to the same facts.
 * The probe output comes from the host and the archive from whoever sent it: neither can make GPUForge
 * write outside the snapshot's own temporary tree ({@link SnapshotLayout}, {@link SnapshotArchive}).
 */
public final class Snapshot {

    private static final Set<String> DIRECTORIES = Set.of("/sys/firmware/efi", "/sys/firmware/acpi/tables",
            "/sys/kernel/iommu_groups", "/etc/pve", "/etc/initramfs-tools", "/boot/grub", "/boot/grub2");
    private static final Map<String, String> COMMAND_FILES = Map.of("dmesg", "gpuforge/dmesg.txt",
            "proxmox-boot-tool status", "gpuforge/proxmox-boot-tool-status.txt",
            "zpool status -PL", "gpuforge/zpool-status.txt", "pciids", "gpuforge/names.txt");

    private Snapshot() {
    }

    /** Runs the probe through {@code shell} and writes the snapshot archive. */
    public static void capture(HostShell shell, boolean useSudo, Path archive) throws ProbeException {
        capture(shell, useSudo, archive, SnapshotArchive.system());
    }

    static void capture(HostShell shell, boolean useSudo, Path archive, SnapshotArchive tar) throws ProbeException {
        HostShell.Result r = shell.run(useSudo ? "sudo -n sh -s || sh -s" : "sh -s",
                HostProbe.script().getBytes(StandardCharsets.UTF_8), HostProbe.DEFAULT_TIMEOUT);
        String text = new String(r.stdout(), StandardCharsets.UTF_8);
        ProbeStream s = ProbeStream.parse(text);
        Map<String, String> links = SnapshotLayout.check(text, s);
        Path tmp = null;
        try {
            tmp = Files.createTempDirectory("gpuforge-snapshot-");
            materialize(s, links, tmp);
            tar.pack(tmp, archive);
        } catch (IOException e) {
            throw new ProbeException("The snapshot could not be written to " + archive + ": " + e.getMessage(), e);
        } finally {
            deleteTree(tmp);
        }
    }

    /** Unpacks a snapshot archive into a new temporary directory (the caller deletes it). */
    public static Path unpack(Path archive) throws ProbeException {
        return SnapshotArchive.system().unpack(archive);
    }

    /** Writes the tree of a checked probe stream; {@code links} are the checked links (path → target). */
    private static void materialize(ProbeStream s, Map<String, String> links, Path root) throws IOException {
        Tree tree = new Tree(root);
        for (Map.Entry<String, String> f : s.files.entrySet()) {
            String content = f.getValue();
            if (f.getKey().equals("/proc/cpuinfo") && s.cpus > 1) {
                StringBuilder all = new StringBuilder();
                for (int i = 0; i < s.cpus; i++) {
                    all.append(content.replaceFirst("(?m)^processor\\s*:\\s*\\d+", "processor\t: " + i).strip()).append("\n\n");
                }
                content = all.toString();
            }
            tree.write(f.getKey(), content);
        }
        for (String e : s.exists) {
            if (DIRECTORIES.contains(e)) {
                tree.directory(e);
            } else if (!tree.exists(e)) {
                tree.write(e, "");
            }
        }
        for (Map.Entry<String, String> c : s.commands.entrySet()) {
            String file = COMMAND_FILES.get(c.getKey());
            if (file != null) {
                tree.write("/" + file, c.getValue());
            }
        }
        for (Map.Entry<String, Map<String, List<String>>> d : s.devices.entrySet()) {
            String dev = "/sys/bus/pci/devices/" + d.getKey();
            tree.directory(dev);
            for (Map.Entry<String, List<String>> a : d.getValue().entrySet()) {
                switch (a.getKey()) {
                    case "resource":
                        tree.write(dev + "/resource", String.join("\n", a.getValue()) + "\n");
                        break;
                    case "rebar":
                        tree.write(dev + "/resource0_resize", "0\n");
                        break;
                    case "rom":
                        tree.write(dev + "/rom", "");
                        break;
                    default:
                        tree.write(dev + "/" + a.getKey(), a.getValue().get(0) + "\n");
                }
            }
        }
        for (Map.Entry<Integer, List<String>> g : s.groups.entrySet()) {
            String dir = "/sys/kernel/iommu_groups/" + g.getKey() + "/devices";
            tree.directory(dir);
            for (String m : g.getValue()) {
                tree.link(dir + "/" + m, "../../../../bus/pci/devices/" + m);
            }
        }
        for (Map.Entry<String, String> dm : s.deviceMapperNames.entrySet()) {
            tree.write("/sys/class/block/" + dm.getKey() + "/dm/name", dm.getValue() + "\n");
        }
        // deepest first: md0/slaves/sda1 makes md0 a directory before md0 itself would become a link
        List<String> paths = new ArrayList<>(links.keySet());
        paths.sort(Comparator.comparingLong((String p) -> p.chars().filter(c -> c == '/').count()).reversed());
        for (String path : paths) {
            if (!tree.exists(path)) {
                tree.link(path, links.get(path));
            }
        }
    }

    /** Writes below one root only: never through a link, never to a path that climbs out. */
    private static final class Tree {
        private final Path root;

        Tree(Path root) {
            this.root = root;
        }

        private Path at(String absolute) throws IOException {
            Path p = root.resolve(absolute.startsWith("/") ? absolute.substring(1) : absolute).normalize();
            if (!p.startsWith(root) || p.equals(root)) {
                throw new IOException("path escapes the snapshot: " + absolute);
            }
            for (Path q = p.getParent(); q != null && !q.equals(root); q = q.getParent()) {
                if (Files.isSymbolicLink(q)) {
                    throw new IOException("path leads through a link: " + absolute);
                }
            }
            return p;
        }

        boolean exists(String absolute) throws IOException {
            return Files.exists(at(absolute), LinkOption.NOFOLLOW_LINKS);
        }

        void directory(String absolute) throws IOException {
            Files.createDirectories(at(absolute));
        }

        void write(String absolute, String content) throws IOException {
            Path p = at(absolute);
            Files.createDirectories(p.getParent());
            try (OutputStream out = Files.newOutputStream(p, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.TRUNCATE_EXISTING, LinkOption.NOFOLLOW_LINKS)) {
                out.write(content.getBytes(StandardCharsets.UTF_8));
            }
        }

        void link(String absolute, String target) throws IOException {
            Path p = at(absolute);
            Files.createDirectories(p.getParent());
            Files.createSymbolicLink(p, Path.of(target));
        }
    }

    /** Deletes a temporary tree (best effort); never follows a link out of it. */
    public static void deleteTree(Path dir) {
        if (dir == null || !Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // best effort for a temporary directory
        }
    }
}
