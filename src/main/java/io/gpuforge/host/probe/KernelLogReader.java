package io.gpuforge.host.probe;

import io.gpuforge.host.ProbeStream;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.regex.Pattern;

/**
 * The kernel log lines passthrough depends on (IOMMU, DMAR, AMD-Vi, interrupt remapping, vfio, BAR and reset
 * trouble), from {@code dmesg} on a live host or a saved copy in a sysroot, and what they say about
 * interrupt remapping.
 */
public final class KernelLogReader {

    private static final Pattern RELEVANT = Pattern.compile(
            "DMAR|AMD-Vi|IOMMU|vfio|remapping|x2apic|BAR \\d+: .*(can.t|fail)|reset", Pattern.CASE_INSENSITIVE);
    private static final Pattern REMAP_OFF = Pattern.compile(
            "(irq|interrupt) remapping (was |is being |is )?disabled|failed to enable (irq|interrupt) remapping"
            + "|not enabling interrupt remapping|irq remapping doesn.t support x2apic");

    private final ProbeStream s;
    private final Consumer<String> unknowns;

    KernelLogReader(ProbeStream s, Consumer<String> unknowns) {
        this.s = s;
        this.unknowns = unknowns;
    }

    /** The relevant lines, stripped, without the one-per-device "Adding to iommu group" noise. */
    List<String> lines() {
        Optional<String> d = Optional.ofNullable(s.commands.get("dmesg"))
                .or(() -> Optional.ofNullable(s.files.get("/gpuforge/dmesg.txt")));
        if (d.isEmpty() || d.get().isBlank()) {
            unknowns.accept("kernel log (dmesg): not readable (needs root on most hosts)");
            return List.of();
        }
        List<String> out = new ArrayList<>();
        for (String line : d.get().split("\n")) {
            if (RELEVANT.matcher(line).find() && !line.contains("Adding to iommu group")) {
                out.add(line.strip());
            }
        }
        return out;
    }

    /** False when the log says remapping is off or failed (that wins), true when it says enabled, else empty. */
    static Optional<Boolean> interruptRemapping(List<String> log) {
        for (String l : log) {
            if (REMAP_OFF.matcher(l.toLowerCase(Locale.ROOT)).find()) {
                return Optional.of(false);
            }
        }
        for (String l : log) {
            String x = l.toLowerCase(Locale.ROOT);
            if (x.contains("enabled irq remapping") || x.contains("interrupt remapping enabled")) {
                return Optional.of(true);
            }
        }
        return Optional.empty();
    }
}
