package io.gpuforge.ui.cluster;

import io.gpuforge.domain.GpuInfo;
import io.gpuforge.domain.vm.VmDisk;
import io.gpuforge.domain.vm.VmInfo;
import io.gpuforge.domain.vm.VmNic;
import io.gpuforge.ui.common.I18n;
import java.util.Locale;
import java.util.OptionalDouble;
import java.util.OptionalLong;

/** Sizes, times and shares as the console's pages show them. Pure. */
public final class ConsoleFormat {

    private ConsoleFormat() {
    }

    /** 68719476736 → "64.0 GiB"; below a GiB in MiB. */
    public static String bytes(long b) {
        if (b >= 1L << 40) {
            return String.format(Locale.ROOT, "%.1f TiB", b / (double) (1L << 40));
        }
        if (b >= 1L << 30) {
            return String.format(Locale.ROOT, "%.1f GiB", b / (double) (1L << 30));
        }
        return String.format(Locale.ROOT, "%d MiB", b >> 20);
    }

    public static String bytes(OptionalLong b, I18n i18n) {
        return b.isPresent() ? bytes(b.getAsLong()) : i18n.get("value.unknown");
    }

    /** 0.123 → "12.3 %". */
    public static String percent(OptionalDouble share, I18n i18n) {
        return share.isPresent() ? String.format(Locale.ROOT, "%.1f %%", share.getAsDouble() * 100) : i18n.get("value.unknown");
    }

    /** 93784 s → "1 d 2 h 3 min". */
    public static String uptime(OptionalLong seconds, I18n i18n) {
        if (seconds.isEmpty()) {
            return i18n.get("value.unknown");
        }
        long s = seconds.getAsLong();
        return i18n.get("console.uptime", s / 86400, s % 86400 / 3600, s % 3600 / 60);
    }

    /** A VM as the tree lists it: "101 train-01". */
    public static String vmLabel(VmInfo v) {
        return v.ref().id().equals(v.name()) ? v.name() : v.ref().id() + " " + v.name();
    }

    /** "NVIDIA Corporation AD102 [GeForce RTX 4090]" → "GeForce RTX 4090": the marketing name when there is one. */
    public static String shortName(String name) {
        int open = name.lastIndexOf('[');
        int close = name.lastIndexOf(']');
        return open >= 0 && close > open + 1 ? name.substring(open + 1, close) : name;
    }

    /**
     * A GPU as the tree lists it: "GeForce RTX 4090 · 01:00.0 → VM 101", given through a resource mapping
     * "… → VM 101 (mapping gpu-4090-a)", "… · free", or, while nobody knows whether a VM uses it, the resource
     * mapping that names it ("… · mapping gpu-4090-a").
     */
    public static String gpuLabel(GpuInfo g, I18n i18n) {
        String where = g.assignedTo().map(v -> " → " + i18n.get("console.gpu.assigned", v.id())
                        + g.mapping().map(m -> i18n.get("console.gpu.mapping.inBrackets", m)).orElse("")
                        + alsoIn(g, i18n))
                .orElse(g.free() ? " · " + i18n.get("cluster.gpu.free")
                        : g.mapping().map(m -> " · " + i18n.get("console.gpu.mapping", m)).orElse(""));
        return shortName(g.name()) + " · " + g.address().toString().substring(5) + where;
    }

    /**
     * A GPU as the tree's row shows it, short enough for the tree at its default width: "RTX 4090 · 01:00.0 → VM 101"
     * ("→ VM 121 +1" when another VM names it too),
     * "… · free", "… · mapping gpu-4090-a" while nobody knows whether a VM uses it. The whole of
     * {@link #gpuLabel} (the vendor's name, the mapping a VM has it through) is the row's tooltip.
     */
    public static String gpuTreeLabel(GpuInfo g, I18n i18n) {
        String where = g.assignedTo().map(v -> " → " + i18n.get("console.gpu.assigned", v.id())
                        + (g.alsoIn().isEmpty() ? "" : " +" + g.alsoIn().size()))
                .orElse(g.free() ? " · " + i18n.get("cluster.gpu.free")
                        : g.mapping().map(m -> " · " + i18n.get("console.gpu.mapping", m)).orElse(""));
        return compactName(g.name()) + " · " + g.address().toString().substring(5) + where;
    }

    /** "; also set up in VM 122" when other VMs name the same card (only one of them can start with it), else "". */
    public static String alsoIn(GpuInfo g, I18n i18n) {
        return g.alsoIn().isEmpty() ? "" : "; " + i18n.get("console.gpu.alsoIn", g.alsoIn().size(),
                String.join(", ", g.alsoIn().stream().map(v -> v.id()).toList()));
    }

    /** "NVIDIA Corporation AD102 [GeForce RTX 4090]" → "RTX 4090": the marketing name without the brand. */
    public static String compactName(String name) {
        String s = shortName(name);
        for (String brand : new String[] {"NVIDIA ", "GeForce ", "AMD ", "Radeon "}) {
            if (s.startsWith(brand) && s.length() > brand.length()) {
                s = s.substring(brand.length());
            }
        }
        return s;
    }

    public static String disk(VmDisk d) {
        return (d.slot() + ": " + d.source() + (d.sizeBytes().isPresent() ? " (" + bytes(d.sizeBytes().getAsLong()) + ")"
                : "") + (d.cdrom() ? " [CD-ROM]" : "")).strip();
    }

    public static String nic(VmNic n) {
        return (n.slot() + ": " + n.model() + " " + n.mac() + (n.network().isEmpty() ? "" : " → " + n.network())).strip();
    }
}
