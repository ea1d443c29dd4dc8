package io.gpuforge.telemetry;

import io.gpuforge.host.HostShell;
import io.gpuforge.host.ProbeException;
import io.gpuforge.domain.passthrough.PassthroughPlan;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Power limits on a host: set now with {@code nvidia-smi -i GPU -pl W} (through {@code sudo -n} when not root), and
 * made to last with a systemd unit that sets it at boot, as a plan of file edits and commands applied (and rolled
 * back) by the same machinery as passthrough.
 */
public final class PowerLimits {

    private PowerLimits() {
    }

    /** A GPU selector nvidia-smi accepts: a UUID or an index; anything else is refused. */
    static String selector(String device) {
        if (device.matches("GPU-[0-9a-fA-F-]{8,64}") || device.matches("\\d{1,3}")) {
            return device;
        }
        if (device.matches("index:\\d{1,3}")) {
            return device.substring(6);
        }
        if (device.matches("[0-9a-fA-F]{4}:[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\\.[0-7]")) {
            return device;
        }
        throw new IllegalArgumentException("'" + device + "' is not a GPU nvidia-smi can select (a UUID, an index or"
                + " a PCI address)");
    }

    public static String command(String device, double watts, boolean sudo) {
        return (sudo ? "sudo -n " : "") + "nvidia-smi -i " + selector(device) + " -pl "
                + String.format(Locale.ROOT, "%.2f", watts);
    }

    public static void set(HostShell shell, String device, double watts, boolean sudo) throws SourceException {
        String cmd = command(device, watts, sudo);
        try {
            HostShell.Result r = shell.run(cmd, new byte[0], Duration.ofSeconds(20));
            String out = (new String(r.stdout(), StandardCharsets.UTF_8) + " " + r.stderr()).strip();
            if (r.exitCode() != 0) {
                String hint = out.contains("a password is required") || out.contains("sudo:")
                        ? " (the user needs passwordless sudo for nvidia-smi, or log in as root)"
                        : out.toLowerCase(Locale.ROOT).contains("insufficient permissions") ? " (it needs root)" : "";
                throw new SourceException("'" + cmd + "' on " + shell.describe() + " failed: " + out + hint);
            }
        } catch (ProbeException e) {
            throw new SourceException("cannot set the power limit on " + shell.describe() + ": " + e.getMessage(), e);
        }
    }

    /** The unit's file name for a GPU ({@code gpuforge-power-limit-GPU-1234abcd.service}). */
    public static String unitName(String device) {
        String s = selector(device).replaceAll("[^A-Za-z0-9-]", "-");
        return "gpuforge-power-limit-" + (s.length() > 40 ? s.substring(0, 40) : s) + ".service";
    }

    public static String unitPath(String device) {
        return "/etc/systemd/system/" + unitName(device);
    }

    /**
     * The plan that keeps {@code watts} after reboots: the unit file (shown as a diff against what is there now) and
     * one command that takes the unit file as it finds it: enabled and started when the file is there, its
     * enablement removed when it is not, so the same command is right after an apply and after a rollback.
     */
    public static PassthroughPlan persistentPlan(String host, String device, double watts, Optional<String> current) {
        String unit = unitName(device);
        String path = unitPath(device);
        String w = String.format(Locale.ROOT, "%.2f", watts);
        String after = "# Written by GPUForge: keeps the power limit of GPU " + device + " at " + w + " W after reboots.\n"
                + "[Unit]\nDescription=GPUForge power limit " + w + " W for GPU " + device + "\n"
                + "After=nvidia-persistenced.service systemd-modules-load.service\n\n"
                + "[Service]\nType=oneshot\nExecStart=/usr/bin/nvidia-smi -pm 1\n"
                + "ExecStart=/usr/bin/nvidia-smi -i " + selector(device) + " -pl " + w + "\nRemainAfterExit=yes\n\n"
                + "[Install]\nWantedBy=multi-user.target\n";
        String command = "systemctl daemon-reload && if [ -f " + path + " ]; then systemctl enable " + unit
                + " && systemctl restart " + unit + "; else rm -f /etc/systemd/system/multi-user.target.wants/" + unit
                + "; systemctl daemon-reload; fi";
        List<PassthroughPlan.FileEdit> edits = current.isPresent() && current.get().equals(after) ? List.of()
                : List.of(new PassthroughPlan.FileEdit(path, current, after));
        return new PassthroughPlan("power-limit-" + selector(device).replaceAll("[^A-Za-z0-9-]", "-"), host, List.of(),
                edits, edits.isEmpty() ? List.of() : List.of(command), false, List.of(),
                List.of(io.gpuforge.domain.message.Message.of("note.powerLimit", String.valueOf(w), unit)));
    }
}
