package io.gpuforge.demo;

import io.gpuforge.bounded.BoundedStreams;
import io.gpuforge.domain.host.HostException;
import io.gpuforge.domain.passthrough.PassthroughPlan;
import io.gpuforge.domain.pci.PciAddress;
import io.gpuforge.domain.passthrough.PlanBlockedException;
import io.gpuforge.domain.passthrough.PlanOptions;
import io.gpuforge.host.apply.HostConfigurator;
import io.gpuforge.host.probe.HostProbe;
import io.gpuforge.host.HostShell;
import io.gpuforge.passthrough.Planner;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The simulated host behind a Demo lab node: a tree in a temp directory that stands for its {@code /} (read and
 * edited by GPUForge's own scripts, exactly as on a real host), the refresh commands and reboots it was asked for
 * (recorded, and simulated by {@link SimBoot}), and a reboot that takes its time and re-reads the host's own boot
 * configuration. Nothing here touches this machine outside the tree. Tests (and the Demo lab's switches) can make
 * the next run of a command fail, keep the host down after a reboot, or turn the IOMMU off in the firmware.
 */
public final class SimHost {

    /** {@code journalctl -o short-iso}'s time. */
    private static final DateTimeFormatter ISO = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ssZ")
            .withZone(ZoneOffset.UTC);
    /** A dmesg line's time since boot: {@code [   12.345678] text}. */
    private static final Pattern DMESG_STAMP = Pattern.compile("^\\[\\s*(\\d+)\\.(\\d{6})\\] ?(.*)$");

    /** A command the host was asked to run, and when (milliseconds since the epoch). */
    public record Recorded(long at, String command) {
    }

    private final String node;
    private final SimHostTree tree;
    private final SimHostTree.Profile profile;
    private final SimBoot boot;
    private final List<Recorded> recorded = new ArrayList<>();
    private final Set<String> failNext = new HashSet<>();
    private boolean firmwareIommu;
    private long downUntil;
    private boolean down;
    private boolean stayDown;
    private Duration rebootTakes = Duration.ofSeconds(4);
    private Duration waitLimit = Duration.ofMinutes(2);
    private Duration lineDelay = Duration.ofMillis(60);

    /** Marks a tree built whole: a kept one is taken as it is (what GPUForge changed on it stays). */
    private static final String BUILT = "/gpuforge/built";
    /** When the host booted last, in milliseconds since the epoch: kept in its tree across runs. */
    private static final String BOOTED = "/gpuforge/booted-millis";

    SimHost(SimCluster.Node node, Path root) throws IOException {
        this.node = node.name();
        this.tree = new SimHostTree(root);
        this.profile = SimHostTree.profile(node);
        this.firmwareIommu = profile.firmwareIommu();
        this.boot = new SimBoot(tree, profile, node.pci());
        if (Files.exists(tree.path(BUILT))) {
            // kept from an earlier run (the Demo lab remembers): as that run left it
            String booted = BoundedStreams.readString(tree.path(BOOTED), 64).strip();
            bootedMillis = booted.matches("\\d{1,19}") ? Long.parseLong(booted) : bootedMillis;
            return;
        }
        if (Files.exists(root)) {
            SimBoot.deleteTree(root); // a build cut off half-way: made again
        }
        build(node);
        tree.file(BOOTED, String.valueOf(bootedMillis));
        tree.file(BUILT, "built by GPUForge's Demo lab\n");
    }

    private void build(SimCluster.Node node) throws IOException {
        tree.write(node, profile);
        // installed and booted once: the boot loader and the initramfs agree with the configuration
        for (String c : boot.installCommands()) {
            boot.refresh(c);
        }
        boot.boot(firmwareIommu);
        if (profile.passedThroughBefore().isPresent()) {
            earlierPassthrough(PciAddress.parse(profile.passedThroughBefore().get()));
        }
    }

    /** A card GPUForge passed through some days ago: its apply (journal, backups) and the reboot after it. */
    private void earlierPassthrough(PciAddress card) throws IOException {
        Duration pace = lineDelay;
        lineDelay = Duration.ZERO;
        try (HostShell s = new SimHostShell(this)) {
            PassthroughPlan plan = Planner.plan(new HostProbe().probe(s, false), card, PlanOptions.defaults());
            Clock then = Clock.fixed(Instant.now().minus(Duration.ofDays(9)).truncatedTo(ChronoUnit.HOURS), ZoneOffset.UTC);
            new HostConfigurator(s, Optional.empty(), false, then).apply(plan);
        } catch (HostException | PlanBlockedException e) {
            throw new IOException("the earlier passthrough of " + card + " on " + node + " failed: " + e.getMessage(), e);
        } finally {
            lineDelay = pace;
        }
        boot.boot(firmwareIommu);
        recorded.clear();
    }

    /** The device nodes under /dev the host has now. */
    java.util.Set<String> deviceNodes() throws IOException {
        return boot.deviceNodes();
    }

    public String node() {
        return node;
    }

    /** The directory that stands for the host's {@code /}. */
    public Path root() {
        return tree.root();
    }

    /** Everything the host was asked to run (refresh commands, reboots), in order. */
    public synchronized List<Recorded> commands() {
        return List.copyOf(recorded);
    }

    /** The next run of {@code command} (a refresh command) fails, as a full /boot or a DKMS build error would. */
    public synchronized SimHost failNext(String command) {
        failNext.add(command);
        return this;
    }

    /** After the next reboot the host stays down until {@code false} is set (a host that does not come back). */
    public synchronized SimHost stayDown(boolean on) {
        stayDown = on;
        return this;
    }

    /** Turns VT-d / AMD-Vi on or off in the firmware setup; the host boots again with it (as after a visit to the BIOS). */
    public synchronized SimHost firmwareIommu(boolean on) throws IOException {
        firmwareIommu = on;
        String table = "/sys/firmware/acpi/tables/" + (profile.intel() ? "DMAR" : "IVRS");
        if (on) {
            tree.file(table, table.substring(table.lastIndexOf('/') + 1));
        } else {
            Files.deleteIfExists(tree.path(table));
        }
        boot.boot(firmwareIommu);
        return this;
    }

    /** How long a reboot keeps the host away. */
    public synchronized SimHost rebootTakes(Duration d) {
        rebootTakes = d;
        return this;
    }

    /** How long GPUForge should wait for this host to come back from a reboot before it gives up. */
    public synchronized Duration waitLimit() {
        return waitLimit;
    }

    public synchronized SimHost waitLimit(Duration d) {
        waitLimit = d;
        return this;
    }

    /** The pause between the lines a simulated refresh command prints (the wizard shows them live). */
    public synchronized SimHost lineDelay(Duration d) {
        lineDelay = d;
        return this;
    }

    /** Whether the host answers now; a host whose reboot is over boots (re-reads its boot configuration) first. */
    public synchronized boolean up() {
        if (down && !stayDown && System.currentTimeMillis() >= downUntil) {
            try {
                boot.boot(firmwareIommu);
            } catch (IOException e) {
                throw new UncheckedIOException("the simulated host " + node + " could not boot: " + e.getMessage(), e);
            }
            down = false;
            bootedMillis = System.currentTimeMillis();
            try {
                tree.file(BOOTED, String.valueOf(bootedMillis));
            } catch (IOException e) {
                throw new UncheckedIOException("the simulated host " + node + " could not boot: " + e.getMessage(), e);
            }
        }
        return !down;
    }

    /** Reboots now: the host goes away for {@link #rebootTakes(Duration)} and boots with what its boot files say. */
    public synchronized void reboot(String how) {
        rebootAt(System.currentTimeMillis(), how);
    }

    synchronized void rebootAt(long when, String how) {
        recorded.add(new Recorded(when, how));
        down = true;
        downUntil = when + rebootTakes.toMillis();
    }

    private volatile java.util.function.LongFunction<List<SimCluster.KernelLine>> clusterKernel = from -> List.of();
    /** when the host booted last: three days before the lab started, until it reboots */
    private long bootedMillis = System.currentTimeMillis() - Duration.ofDays(3).toMillis();

    /** Where the kernel lines the cluster made this node log (a failed start's) come from. */
    void kernelLinesFrom(java.util.function.LongFunction<List<SimCluster.KernelLine>> lines) {
        clusterKernel = lines;
    }

    /**
     * The host's kernel log from {@code fromMillis} to {@code untilMillis}, its last {@code maxLines} lines, as
     * {@code journalctl -k -o short-iso} prints it: the boot's lines (its dmesg) at the last boot, then what it logged
     * since.
     */
    String journal(long fromMillis, long untilMillis, int maxLines) throws IOException {
        long booted;
        synchronized (this) {
            booted = bootedMillis;
        }
        List<String> out = new ArrayList<>();
        Path dmesg = tree.path("/gpuforge/dmesg.txt");
        if (Files.exists(dmesg)) {
            for (String line : BoundedStreams.readString(dmesg, 1 << 20).split("\n")) {
                Matcher m = DMESG_STAMP.matcher(line);
                long at = booted + (m.matches() ? Long.parseLong(m.group(1)) * 1000 + Long.parseLong(m.group(2)) / 1000 : 0);
                if (at >= fromMillis && at <= untilMillis) {
                    out.add(ISO.format(Instant.ofEpochMilli(at)) + " " + node + " kernel: " + (m.matches() ? m.group(3) : line));
                }
            }
        }
        for (SimCluster.KernelLine l : clusterKernel.apply(Math.max(fromMillis, booted))) {
            if (l.millis() > untilMillis) {
                continue;
            }
            out.add(ISO.format(Instant.ofEpochMilli(l.millis())) + " " + node + " kernel: " + l.text());
        }
        return String.join("\n", out.subList(Math.max(0, out.size() - maxLines), out.size()))
                + (out.isEmpty() ? "" : "\n");
    }

    /** A shell on this host, as SSH would give one (it refuses while the host is down). */
    public HostShell shell() {
        return new SimHostShell(this);
    }

    /** Runs a refresh command: its output lines, with the host's pace; a switched-on failure fails it once. */
    HostShell.Result refresh(String command, HostShell.LineListener lines) throws InterruptedException {
        boolean fail;
        long pause;
        synchronized (this) {
            recorded.add(new Recorded(System.currentTimeMillis(), command));
            fail = failNext.remove(command);
            pause = lineDelay.toMillis();
        }
        List<String> out;
        try {
            out = fail ? List.of(command.split(" ")[0] + ": starting") : boot.refresh(command);
        } catch (IOException e) {
            return new HostShell.Result(1, new byte[0], command + ": " + e.getMessage());
        }
        StringBuilder all = new StringBuilder();
        for (String line : out) {
            Thread.sleep(pause);
            lines.line(line, false);
            all.append(line).append('\n');
        }
        if (fail) {
            String err = "E: " + command + " failed: No space left on device (simulated failure of the Demo lab)";
            lines.line(err, true);
            return new HostShell.Result(1, all.toString().getBytes(StandardCharsets.UTF_8), err);
        }
        return new HostShell.Result(0, all.toString().getBytes(StandardCharsets.UTF_8), "");
    }
}
