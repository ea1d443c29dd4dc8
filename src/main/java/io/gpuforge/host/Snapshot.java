package io.gpuforge.host;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * A support snapshot: one probe's output laid out as a sysroot (the files, the sysfs attributes and
 * links the probe reads), packed as {@code .tar.gz}. {@code --sysroot} reads it back to the same facts.
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
        HostShell.Result r = shell.run(useSudo ? "sudo -n sh -s || sh -s" : "sh -s",
                HostProbe.script().getBytes(StandardCharsets.UTF_8), HostProbe.DEFAULT_TIMEOUT);
        ProbeStream s = ProbeStream.parse(new String(r.stdout(), StandardCharsets.UTF_8));
        Path tmp = null;
        try {
            tmp = Files.createTempDirectory("gpuforge-snapshot-");
            materialize(s, tmp);
            Path out = archive.toAbsolutePath();
            tar(List.of("tar", "-czf", out.toString(), "-C", tmp.toString(), "."));
        } catch (IOException e) {
            throw new ProbeException("The snapshot could not be written to " + archive + ": " + e.getMessage(), e);
        } finally {
            if (tmp != null) {
                deleteTree(tmp);
            }
        }
    }

    /** Unpacks a snapshot archive into a new temporary directory (the caller deletes it). */
    public static Path unpack(Path archive) throws ProbeException {
        try {
            Path dir = Files.createTempDirectory("gpuforge-sysroot-");
            tar(List.of("tar", "-xzf", archive.toAbsolutePath().toString(), "-C", dir.toString()));
            return dir;
        } catch (IOException e) {
            throw new ProbeException("The snapshot " + archive + " could not be unpacked: " + e.getMessage(), e);
        }
    }

    static void materialize(ProbeStream s, Path root) throws IOException {
        for (Map.Entry<String, String> f : s.files.entrySet()) {
            String content = f.getValue();
            if (f.getKey().equals("/proc/cpuinfo") && s.cpus > 1) {
                StringBuilder all = new StringBuilder();
                for (int i = 0; i < s.cpus; i++) {
                    all.append(content.replaceFirst("(?m)^processor\\s*:\\s*\\d+", "processor\t: " + i).strip()).append("\n\n");
                }
                content = all.toString();
            }
            write(root, f.getKey(), content);
        }
        for (String e : s.exists) {
            Path p = at(root, e);
            if (DIRECTORIES.contains(e)) {
                Files.createDirectories(p);
            } else if (!Files.exists(p)) {
                write(root, e, "");
            }
        }
        s.commands.forEach((cmd, out) -> {
            String file = COMMAND_FILES.get(cmd);
            if (file != null) {
                try {
                    write(root, "/" + file, out);
                } catch (IOException ex) {
                    throw new java.io.UncheckedIOException(ex);
                }
            }
        });
        for (Map.Entry<String, Map<String, List<String>>> d : s.devices.entrySet()) {
            Path dev = at(root, "/sys/bus/pci/devices/" + d.getKey());
            Files.createDirectories(dev);
            for (Map.Entry<String, List<String>> a : d.getValue().entrySet()) {
                switch (a.getKey()) {
                    case "resource":
                        Files.writeString(dev.resolve("resource"), String.join("\n", a.getValue()) + "\n");
                        break;
                    case "rebar":
                        Files.writeString(dev.resolve("resource0_resize"), "0\n");
                        break;
                    case "rom":
                        Files.writeString(dev.resolve("rom"), "");
                        break;
                    default:
                        Files.writeString(dev.resolve(a.getKey()), a.getValue().get(0) + "\n");
                }
            }
        }
        s.groups.forEach((g, members) -> {
            try {
                Path dir = Files.createDirectories(at(root, "/sys/kernel/iommu_groups/" + g + "/devices"));
                for (String m : members) {
                    Files.createSymbolicLink(dir.resolve(m), Path.of("../../../../bus/pci/devices/" + m));
                }
            } catch (IOException ex) {
                throw new java.io.UncheckedIOException(ex);
            }
        });
        for (Map.Entry<String, String> dm : s.deviceMapperNames.entrySet()) {
            write(root, "/sys/class/block/" + dm.getKey() + "/dm/name", dm.getValue() + "\n");
        }
        String prefix = s.root.equals("/") ? "" : s.root;
        // deepest first: md0/slaves/sda1 makes md0 a directory before md0 itself would become a link
        List<String> links = new java.util.ArrayList<>(s.links);
        links.sort(java.util.Comparator.comparingInt(String::length).reversed());
        for (String line : links) {
            int arrow = line.indexOf(" -> ");
            int slash = line.indexOf(" /");
            if (arrow < 0 || slash < 0 || slash > arrow) {
                continue;
            }
            String path = line.substring(slash + 1, arrow);
            if (!prefix.isEmpty() && path.startsWith(prefix)) {
                path = path.substring(prefix.length());
            }
            Path link = at(root, path);
            if (Files.exists(link, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                continue;
            }
            Files.createDirectories(link.getParent());
            Files.createSymbolicLink(link, Path.of(line.substring(arrow + 4).strip()));
        }
    }

    private static Path at(Path root, String absolute) {
        Path p = root.resolve(absolute.startsWith("/") ? absolute.substring(1) : absolute).normalize();
        if (!p.startsWith(root)) {
            throw new IllegalArgumentException("path escapes the snapshot: " + absolute);
        }
        return p;
    }

    private static void write(Path root, String absolute, String content) throws IOException {
        Path p = at(root, absolute);
        Files.createDirectories(p.getParent());
        Files.writeString(p, content);
    }

    private static void tar(List<String> command) throws IOException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        try {
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(Duration.ofMinutes(2).toSeconds(), TimeUnit.SECONDS) || p.exitValue() != 0) {
                throw new IOException("tar failed: " + out.strip());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
    }

    public static void deleteTree(Path dir) {
        try (var walk = Files.walk(dir)) {
            walk.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // best effort for a temporary directory
        }
    }
}
