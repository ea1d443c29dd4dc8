package io.gpuforge.host.probe;

import io.gpuforge.host.ProbeStream;

import io.gpuforge.domain.host.BootSetup;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How the host boots: UEFI or legacy, and which boot loader holds the kernel command line. Proxmox's
 * {@code proxmox-boot-tool status} decides when present; else systemd-boot's loader.conf with
 * {@code /etc/kernel/cmdline}, else GRUB's files. GRUB's variables are read from {@code /etc/default/grub}
 * and then {@code grub.d} in order, a later assignment winning, as grub-mkconfig sources them.
 */
public final class BootSetupReader {

    private static final Pattern GRUB_VAR = Pattern.compile("^\\s*(GRUB_CMDLINE_LINUX(?:_DEFAULT)?)=(.*)$");

    private final ProbeStream s;
    private final Consumer<String> unknowns;

    BootSetupReader(ProbeStream s, Consumer<String> unknowns) {
        this.s = s;
        this.unknowns = unknowns;
    }

    private Optional<String> file(String path) {
        return Optional.ofNullable(s.files.get(path));
    }

    BootSetup read() {
        BootSetup.Mode mode = s.exists.contains("/sys/firmware/efi") ? BootSetup.Mode.UEFI
                : s.exists.contains("/sys/firmware/acpi/tables") ? BootSetup.Mode.LEGACY : BootSetup.Mode.UNKNOWN;
        Optional<String> pbt = Optional.ofNullable(s.commands.get("proxmox-boot-tool status"))
                .or(() -> file("/gpuforge/proxmox-boot-tool-status.txt"));
        Optional<String> kernelCmdline = file("/etc/kernel/cmdline").map(String::strip);
        Map<String, String> grubVars = grubVariables();
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
        } else if (s.exists.contains("/boot/efi/loader/loader.conf") || s.exists.contains("/boot/loader/loader.conf")) {
            // systemd-boot without /etc/kernel/cmdline: its entries carry the command line
            loader = BootSetup.Loader.SYSTEMD_BOOT;
            unknowns.accept("bootloader: systemd-boot without /etc/kernel/cmdline; the loader entries were not read");
        } else {
            loader = BootSetup.Loader.UNKNOWN;
            unknowns.accept("bootloader: neither /etc/default/grub nor systemd-boot configuration found");
        }
        return new BootSetup(mode, loader, Optional.ofNullable(grubVars.get("GRUB_CMDLINE_LINUX_DEFAULT")),
                Optional.ofNullable(grubVars.get("GRUB_CMDLINE_LINUX")), kernelCmdline, detail);
    }

    private Map<String, String> grubVariables() {
        Map<String, String> vars = new LinkedHashMap<>();
        List<String> grubFiles = new ArrayList<>();
        grubFiles.add("/etc/default/grub");
        s.files.keySet().stream().filter(p -> p.startsWith("/etc/default/grub.d/")).sorted().forEach(grubFiles::add);
        for (String f : grubFiles) {
            file(f).ifPresent(c -> {
                for (String line : c.split("\n")) {
                    Matcher m = GRUB_VAR.matcher(line);
                    if (m.matches()) {
                        vars.put(m.group(1), shellValue(m.group(2)));
                    }
                }
            });
        }
        return vars;
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
}
