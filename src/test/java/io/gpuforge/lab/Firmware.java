package io.gpuforge.lab;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The lab's "firmware": before each boot it reads the boot configuration the guest's own tooling wrote to its
 * disk (read with debugfs, no mount, no root) and boots what it names, as a real machine's boot loader would.
 * <ul>
 *   <li>GRUB: the default (first) entry of {@code /boot/grub/grub.cfg} that {@code update-grub} generated: its
 *       {@code linux} line (kernel and command line) and its {@code initrd}.</li>
 *   <li>systemd-boot as Proxmox VE keeps it: the entry {@code /boot/efi/loader/loader.conf} names as default, as
 *       the {@code proxmox-boot-tool refresh} stand-in copied it from {@code /etc/kernel/cmdline} to the ESP.</li>
 * </ul>
 */
final class Firmware {

    enum Loader { GRUB, SYSTEMD_BOOT }

    private static final Pattern MENUENTRY = Pattern.compile("(?m)^menuentry ");
    private static final Pattern LINUX = Pattern.compile("(?m)^\\s*linux\\s+(\\S+)\\s*(.*)$");
    private static final Pattern INITRD = Pattern.compile("(?m)^\\s*initrd\\s+(\\S+)");
    private final Path disk;
    private final Loader loader;
    private final Path scratch;
    private final LabArtifacts artifacts;

    Firmware(Path disk, Loader loader, Path scratch, LabArtifacts artifacts) {
        this.disk = disk;
        this.loader = loader;
        this.scratch = scratch;
        this.artifacts = artifacts;
    }

    /** The entry the machine boots now, with the kernel and initramfs copied off the disk. */
    Qemu.BootEntry entry() throws IOException {
        String kernel;
        String initrd;
        String cmdline;
        if (loader == Loader.GRUB) {
            String cfg = cat("/boot/grub/grub.cfg");
            Matcher first = MENUENTRY.matcher(cfg);
            if (!first.find()) {
                throw new IOException("/boot/grub/grub.cfg on the lab disk has no menuentry:\n" + cfg);
            }
            String entry = cfg.substring(first.start());
            int end = entry.indexOf("\n}");
            entry = end < 0 ? entry : entry.substring(0, end);
            Matcher l = LINUX.matcher(entry);
            Matcher i = INITRD.matcher(entry);
            if (!l.find() || !i.find()) {
                throw new IOException("the first GRUB entry has no linux or initrd line:\n" + entry);
            }
            kernel = l.group(1);
            cmdline = l.group(2).strip();
            initrd = i.group(1);
        } else {
            String conf = cat("/boot/efi/loader/loader.conf");
            String pattern = conf.lines().filter(x -> x.startsWith("default ")).map(x -> x.substring(8).strip())
                    .findFirst().orElseThrow(() -> new IOException("loader.conf has no default: " + conf));
            String glob = pattern.endsWith(".conf") ? pattern : pattern + ".conf";
            String names = debugfs("ls -l /boot/efi/loader/entries");
            Optional<String> name = names.lines().map(x -> x.strip().replaceAll(".*\\s", ""))
                    .filter(n -> n.matches(glob.replace(".", "\\.").replace("*", ".*"))).sorted().reduce((a, b) -> b);
            String entry = cat("/boot/efi/loader/entries/" + name.orElseThrow(() ->
                    new IOException("no loader entry matches " + glob + " in:\n" + names)));
            kernel = "/boot/efi" + field(entry, "linux");
            initrd = "/boot/efi" + field(entry, "initrd");
            cmdline = field(entry, "options");
        }
        Path k = dump(kernel, "vmlinuz");
        Path r = dump(initrd, "initrd.img");
        return new Qemu.BootEntry(artifacts.vmlinux(k), r, cmdline);
    }

    private static String field(String entry, String key) throws IOException {
        return entry.lines().filter(x -> x.startsWith(key + " ") || x.startsWith(key + "\t"))
                .map(x -> x.substring(key.length()).strip()).findFirst()
                .orElseThrow(() -> new IOException("the loader entry has no " + key + ":\n" + entry));
    }

    /** A file of the guest's disk as text. */
    String cat(String path) throws IOException {
        Path out = dump(path, "cat");
        return Files.readString(out, StandardCharsets.UTF_8);
    }

    /** Copies a file off the guest's disk (following no links: the boot files are plain files). */
    Path dump(String path, String as) throws IOException {
        Files.createDirectories(scratch);
        Path out = scratch.resolve(as);
        Files.deleteIfExists(out);
        debugfs("dump " + path + " " + out);
        if (!Files.exists(out)) {
            throw new IOException(path + " is not on the lab disk " + disk);
        }
        return out;
    }

    private String debugfs(String request) throws IOException {
        Path log = scratch.resolve("debugfs.out");
        Files.createDirectories(scratch);
        try {
            Process p = new ProcessBuilder(List.of("debugfs", "-R", request, disk.toString())).redirectErrorStream(false)
                    .redirectOutput(log.toFile()).redirectError(ProcessBuilder.Redirect.DISCARD).start();
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException("debugfs " + request + " hung");
            }
            return Files.readString(log, StandardCharsets.UTF_8);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
    }
}
