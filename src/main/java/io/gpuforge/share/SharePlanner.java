package io.gpuforge.share;

import io.gpuforge.domain.message.Message;
import io.gpuforge.domain.host.HostFacts;
import io.gpuforge.domain.passthrough.PassthroughPlan;
import io.gpuforge.domain.passthrough.PlanBlockedException;
import io.gpuforge.domain.passthrough.ReadinessReport;
import io.gpuforge.domain.pci.PciAddress;
import io.gpuforge.domain.share.ContainerDevice;
import io.gpuforge.domain.share.ShareReadiness;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.TreeSet;

/**
 * The host side of sharing a GPU with containers, as a plan passthrough's apply, verify and rollback take: for
 * NVIDIA a boot unit that makes the device nodes ({@code nvidia-modprobe -c N -u}) before the guests start, since
 * {@code /dev/nvidia-uvm} exists only after the driver's first use; AMD and Intel nodes exist from boot, so their
 * plan changes nothing on the host. The container's {@code devN} lines are the plan's VM change.
 */
public final class SharePlanner {

    public static final String UNIT = "gpuforge-nvidia-nodes.service";
    public static final String UNIT_PATH = "/etc/systemd/system/" + UNIT;

    private SharePlanner() {
    }

    public static PassthroughPlan plan(HostFacts f, PciAddress gpu) throws PlanBlockedException {
        ShareReadiness r = ShareChecks.evaluate(f, gpu);
        if (r.verdict().kind() == io.gpuforge.domain.passthrough.Verdict.Kind.BLOCKED) {
            throw new PlanBlockedException("Sharing " + gpu + " with containers is blocked by "
                    + String.join(", ", r.verdict().because()), new ReadinessReport(r.checks(),
                    Optional.of(r.verdict())));
        }
        List<PassthroughPlan.FileEdit> edits = new ArrayList<>();
        List<String> commands = new ArrayList<>();
        List<Message> notes = new ArrayList<>();
        if (r.hostDriver().filter("nvidia"::equals).isPresent()) {
            String after = unit(f);
            Optional<String> before = Optional.ofNullable(f.files().get(UNIT_PATH));
            if (!before.equals(Optional.of(after))) {
                edits.add(new PassthroughPlan.FileEdit(UNIT_PATH, before, after));
                commands.add(command());
            }
            notes.add(r.driverVersion().map(v -> Message.of("note.containerDriver", v))
                    .orElse(Message.of("note.containerDriver.unknown")));
        }
        return new PassthroughPlan("share-" + gpu.toString().replaceAll("[^0-9a-f]", ""), f.summary().hostname(),
                List.of(gpu), edits, commands, false,
                List.of(new PassthroughPlan.VmChange("proxmox-lxc", "container devices (devN, PVE 8.1+)",
                        devLines(r.devices()))), notes);
    }

    /** The {@code devN} lines for a container without devices yet ({@code dev0: /dev/nvidia0} …). */
    public static String devLines(List<ContainerDevice> devices) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < devices.size(); i++) {
            b.append(i == 0 ? "" : "\n").append("dev").append(i).append(": ").append(devices.get(i).value());
        }
        return b.toString();
    }

    /** The unit, with one {@code -c N} per NVIDIA GPU on the host's driver. */
    static String unit(HostFacts f) {
        ShareFacts s = new ShareFacts(f);
        TreeSet<Integer> minors = new TreeSet<>();
        f.pci().devices().stream().filter(d -> d.driver().filter("nvidia"::equals).isPresent())
                .map(s::nvidiaMinor).filter(OptionalInt::isPresent).forEach(m -> minors.add(m.getAsInt()));
        StringBuilder c = new StringBuilder();
        minors.forEach(m -> c.append(" -c ").append(m));
        return "# Written by GPUForge: makes the NVIDIA device nodes containers are given (devN) at boot, before the\n"
                + "# guests start; /dev/nvidia-uvm exists only after the driver's first use. 'gpuforge rollback' removes it.\n"
                + "[Unit]\nDescription=GPUForge: NVIDIA device nodes for containers\n"
                + "After=systemd-modules-load.service nvidia-persistenced.service\nBefore=pve-guests.service\n\n"
                + "[Service]\nType=oneshot\nExecStart=/usr/bin/nvidia-modprobe" + c + " -u\nRemainAfterExit=yes\n\n"
                + "[Install]\nWantedBy=multi-user.target\n";
    }

    /** One command right after an apply and after a rollback: enabled and started with the file, unhooked without. */
    public static String command() {
        return "systemctl daemon-reload && if [ -f " + UNIT_PATH + " ]; then systemctl enable " + UNIT
                + " && systemctl start " + UNIT + "; else rm -f /etc/systemd/system/multi-user.target.wants/" + UNIT
                + "; systemctl daemon-reload; fi";
    }
}
