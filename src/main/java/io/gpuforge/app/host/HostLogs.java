package io.gpuforge.app.host;

import io.gpuforge.domain.host.HostException;
import io.gpuforge.domain.pci.PciAddress;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Logs read from a host for a diagnosis: its kernel log around a time, the end of a log file. Each within the host
 * scripts' deadline (60 s) and the shell's output cap, and at most the lines asked for. Blocking.
 */
public final class HostLogs {

    private final HostAccess access;

    public HostLogs(HostAccess access) {
        this.access = access;
    }

    /**
     * The host's kernel log from a minute before {@code since} (its last {@code maxLines} lines otherwise):
     * {@code journalctl -k} where the host has it, else {@code dmesg}. A sysroot has no running kernel: refused.
     */
    public String kernelLog(HostTarget target, Optional<Instant> since, int maxLines, HostKeyPrompt prompt)
            throws HostException {
        try (HostAccess.Opened h = access.open(target, prompt)) {
            if (h.sysroot().isPresent()) {
                throw new HostException(h.describe() + " is a directory of files, with no running kernel to ask");
            }
            // from a minute before the start to five after it: a failed start shows within that, and the node's
            // later lines (other VMs' starts) are not this one's
            String from = since.map(t -> " --since @" + (t.getEpochSecond() - 60) + " --until @"
                    + (t.getEpochSecond() + 300)).orElse("");
            return HostScripts.run(h, "Reading the kernel log", "if command -v journalctl >/dev/null 2>&1; then"
                    + " journalctl -k --no-pager -q -o short-iso" + from + " | tail -n " + maxLines + "\n"
                    + "elif command -v dmesg >/dev/null 2>&1; then dmesg | tail -n " + maxLines + "\n"
                    + "else echo 'neither journalctl nor dmesg is on this host' >&2; exit 3; fi");
        }
    }

    /**
     * What the host says of the functions a VM is given, one line each, as lspci and sysfs word it: each function's
     * driver ({@code Kernel driver in use: …}), {@code reset_method} and {@code power_state}, every function of its
     * IOMMU group with its driver, the {@code /proc/iomem} lines that name it, and the shell's memlock limit
     * ({@code ulimit -l}). Read from sysfs under the host's root, so a sysroot answers too.
     */
    public String pciFacts(HostTarget target, List<PciAddress> functions, HostKeyPrompt prompt) throws HostException {
        StringBuilder b = new StringBuilder("for a in");
        for (PciAddress a : functions) {
            b.append(' ').append(HostScripts.q(a.toString()));
        }
        b.append("; do\n"
                + "  d=\"$R/sys/bus/pci/devices/$a\"\n"
                + "  if [ ! -e \"$d\" ]; then echo \"$a: no such PCI device on this host\"; continue; fi\n"
                + "  drv=none; [ -L \"$d/driver\" ] && drv=\"$(basename \"$(readlink \"$d/driver\")\")\"\n"
                + "  echo \"$a: Kernel driver in use: $drv\"\n"
                + "  [ -r \"$d/reset_method\" ] && echo \"$a: reset_method: $(cat \"$d/reset_method\")\"\n"
                + "  [ -r \"$d/power_state\" ] && echo \"$a: power_state: $(cat \"$d/power_state\")\"\n"
                + "  if [ -L \"$d/iommu_group\" ]; then\n"
                + "    g=\"$(basename \"$(readlink \"$d/iommu_group\")\")\"\n"
                + "    for f in \"$R/sys/kernel/iommu_groups/$g/devices/\"*; do\n"
                + "      [ -e \"$f\" ] || continue\n"
                + "      fd=none; [ -L \"$f/driver\" ] && fd=\"$(basename \"$(readlink \"$f/driver\")\")\"\n"
                + "      echo \"$a: IOMMU group $g: ${f##*/}: Kernel driver in use: $fd\"\n"
                + "    done\n"
                + "  else echo \"$a: no IOMMU group (the IOMMU is off or not given to the kernel)\"; fi\n"
                + "  if [ -r \"$R/proc/iomem\" ]; then grep -i -- \"$a\" \"$R/proc/iomem\" | head -n 20"
                + " | sed \"s/^/$a: iomem: /\"; fi\n"
                + "done\n"
                + "echo \"memlock: $(ulimit -l)\"\n");
        try (HostAccess.Opened h = access.open(target, prompt)) {
            return HostScripts.run(h, "Reading the GPU's functions", b.toString());
        }
    }

    /** The last {@code maxLines} lines of a file of the host (through its links, inside a sysroot); empty when absent. */
    public Optional<String> tail(HostTarget target, String path, int maxLines, HostKeyPrompt prompt)
            throws HostException {
        try (HostAccess.Opened h = access.open(target, prompt)) {
            String out = HostScripts.run(h, "Reading " + path, "f=\"$(target \"$R\"" + HostScripts.q(path) + ")\"\n"
                    + "if [ -f \"$f\" ]; then echo EXISTS; tail -n " + maxLines + " -- \"$f\"; else echo ABSENT; fi");
            return out.startsWith("EXISTS\n") ? Optional.of(out.substring("EXISTS\n".length())) : Optional.empty();
        }
    }
}
