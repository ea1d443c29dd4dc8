package io.gpuforge.share;

import io.gpuforge.domain.message.Message;
import io.gpuforge.domain.host.HostFacts;
import io.gpuforge.domain.passthrough.Check;
import io.gpuforge.domain.passthrough.PassthroughPlan;
import io.gpuforge.domain.passthrough.PlanBlockedException;
import io.gpuforge.domain.passthrough.ReadinessReport;
import io.gpuforge.domain.passthrough.Verdict;
import io.gpuforge.domain.pci.PciDevice;
import io.gpuforge.domain.share.ContainerDevice;
import io.gpuforge.domain.share.RawLxc;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Moves a container from the old way of getting GPU devices (raw cgroup rules by device major, bind mounts) to
 * {@code devN} entries, as a plan that edits its configuration file on its node ({@code /etc/pve/lxc/ID.conf}):
 * the GPU's cgroup and mount lines go, one {@code devN} per device node comes (a bound directory such as
 * {@code /dev/dri} becomes its nodes), and every other line stays as it is (a Coral's, say). Applied and rolled back
 * like every host plan. A running container is refused: it takes the change at its next start only.
 */
public final class LegacyMigration {

    public static final Pattern CONFIG = Pattern.compile("/etc/pve/lxc/(\\d{3,9})\\.conf");

    private LegacyMigration() {
    }

    public static String configPath(int vmid) {
        return "/etc/pve/lxc/" + vmid + ".conf";
    }

    public static PassthroughPlan plan(HostFacts f, int vmid, boolean running) throws PlanBlockedException {
        String path = configPath(vmid);
        String before = f.files().get(path);
        if (running) {
            throw blocked("share.migrate.running", "container " + vmid + " is running: stop it first (pct stop "
                    + vmid + "); it takes the devN entries at its next start", String.valueOf(vmid));
        }
        if (before == null) {
            throw blocked("share.migrate.noconfig", "the configuration of container " + vmid + " is not on "
                    + f.summary().hostname() + " (" + path + "): run this against the node it lives on",
                    String.valueOf(vmid));
        }
        DeviceOwners owners = new DeviceOwners(f);
        ShareFacts s = new ShareFacts(f);
        LegacyLines.Parsed parsed = LegacyLines.parse(before);
        Set<String> have = new LinkedHashSet<>();
        parsed.devices().values().forEach(d -> have.add(d.path()));
        List<String> removed = new ArrayList<>();
        List<String> kept = new ArrayList<>();
        Set<String> paths = new LinkedHashSet<>();
        List<String> out = new ArrayList<>();
        boolean firstSection = true;
        int lastDev = -1;
        for (String line : before.split("\n", -1)) {
            if (line.startsWith("[")) {
                firstSection = false;
            }
            Optional<RawLxc> raw = firstSection ? LegacyLines.raw(line) : Optional.empty();
            if (raw.isPresent() && LegacyLines.isDeviceLine(raw.get())) {
                if (gpuLine(raw.get(), owners, paths)) {
                    removed.add(line.strip());
                    continue;
                }
                kept.add(line.strip());
            }
            if (firstSection && line.matches("dev\\d+:.*")) {
                lastDev = out.size();
            }
            out.add(line);
        }
        if (removed.isEmpty()) {
            throw blocked("share.migrate.nothing", "container " + vmid + " has no GPU lines of the old way",
                    String.valueOf(vmid));
        }
        List<ContainerDevice> add = new ArrayList<>();
        for (String p : paths) {
            for (String node : expand(p, owners)) {
                if (have.add(node)) {
                    add.add(withGroup(node, s));
                }
            }
        }
        int index = parsed.devices().isEmpty() ? 0 : parsed.devices().keySet().stream().mapToInt(i -> i).max()
                .getAsInt() + 1;
        List<String> devLines = new ArrayList<>();
        for (ContainerDevice d : add) {
            devLines.add("dev" + index++ + ": " + d.value());
        }
        int at = lastDev >= 0 ? lastDev + 1 : endOfFirstSection(out);
        out.addAll(at, devLines);
        String after = String.join("\n", out);
        List<Message> notes = new ArrayList<>();
        notes.add(Message.of("note.removedLegacy", String.join("; ", removed)));
        if (!kept.isEmpty()) {
            notes.add(Message.of("note.keptLines", String.join("; ", kept)));
        }
        notes.add(Message.of("note.nextStart", String.valueOf(vmid)));
        return new PassthroughPlan("share-migrate-" + vmid, f.summary().hostname(), List.of(),
                List.of(new PassthroughPlan.FileEdit(path, Optional.of(before), after)), List.of(), false,
                List.of(new PassthroughPlan.VmChange("proxmox-lxc", "container " + vmid + " devices",
                        String.join("\n", devLines))), notes);
    }

    /** Whether a device line is a GPU's (its paths collected), else it stays. */
    private static boolean gpuLine(RawLxc l, DeviceOwners owners, Set<String> paths) {
        if (l.key().equals("lxc.mount.entry")) {
            Optional<String> p = LegacyLines.devicePath(l);
            if (p.isPresent() && !owners.gpusOf(p.get()).isEmpty()) {
                paths.add(p.get());
                return true;
            }
            return false;
        }
        Matcher m = LegacyLines.CGROUP.matcher(l.value().strip());
        return m.matches() && owners.gpuMajor(m.group(1));
    }

    /** A bound path as device nodes: itself, or every GPU node under a bound directory. */
    private static List<String> expand(String path, DeviceOwners owners) {
        List<String> out = new ArrayList<>();
        for (PciDevice g : owners.gpus()) {
            for (String n : owners.nodesOf(g)) {
                if ((n.equals(path) || n.startsWith(path + "/")) && !out.contains(n)) {
                    out.add(n);
                }
            }
        }
        return out;
    }

    private static ContainerDevice withGroup(String node, ShareFacts s) {
        ContainerDevice d = ContainerDevice.of(node);
        OptionalInt gid = node.startsWith("/dev/dri/render") ? s.gid("render")
                : node.startsWith("/dev/dri/card") ? s.gid("video") : OptionalInt.empty();
        return gid.isPresent() ? d.withGid(gid.getAsInt()) : d;
    }

    private static int endOfFirstSection(List<String> lines) {
        int end = lines.size();
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).startsWith("[")) {
                end = i;
                break;
            }
        }
        while (end > 0 && lines.get(end - 1).isBlank()) {
            end--;
        }
        return end;
    }

    private static PlanBlockedException blocked(String key, String message, String arg) {
        Check c = Check.of("share.migrate", Check.Status.FAIL, key, arg);
        return new PlanBlockedException(message, new ReadinessReport(List.of(c),
                Optional.of(new Verdict(Verdict.Kind.BLOCKED, List.of("share.migrate")))));
    }
}
