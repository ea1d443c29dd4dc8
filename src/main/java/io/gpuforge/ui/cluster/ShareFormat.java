package io.gpuforge.ui.cluster;

import io.gpuforge.domain.GpuInfo;
import io.gpuforge.domain.share.ContainerUse;
import io.gpuforge.domain.share.GpuShare;
import io.gpuforge.domain.share.NodeShares;
import io.gpuforge.ui.common.I18n;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * How a GPU is used, as the tree, the node page and the IOMMU view say it: whole to a VM ("VM 101"), shared by
 * containers ("shared by 2 containers: 201 media-01, 202 cuda-02", those given it the old way marked), free, or not
 * known; and the driver that holds it. Pure.
 */
public final class ShareFormat {

    private ShareFormat() {
    }

    /** The containers that share a GPU, when its node's shares were read. */
    public static List<ContainerUse> containers(Optional<GpuShare> share) {
        return share.map(GpuShare::containers).orElse(List.of());
    }

    /** Whether some container has the GPU the old way (raw lxc lines), which "Migrate to devN…" moves. */
    public static boolean anyLegacy(Optional<GpuShare> share) {
        return containers(share).stream().anyMatch(ContainerUse::legacy);
    }

    /**
     * The short form after a GPU's name in the tree: "→ VM 101", "· shared ×2" ("⚠" when a container has it the
     * old way), "· free", or the mapping while nobody knows.
     */
    public static String treeUse(GpuInfo g, Optional<GpuShare> share, I18n i18n) {
        List<ContainerUse> cts = containers(share);
        if (g.assignedTo().isEmpty() && !cts.isEmpty()) {
            return " · " + i18n.get("share.gpu.sharedShort", cts.size()) + (anyLegacy(share) ? " ⚠" : "");
        }
        return "";
    }

    /** A GPU's row in the tree: the use by containers when some share it, else as {@link ConsoleFormat#gpuTreeLabel}. */
    public static String treeLabel(GpuInfo g, Optional<GpuShare> share, I18n i18n) {
        return treeLabel(g, share, true, i18n);
    }

    /**
     * The same, {@code usesRead}: whether the node's containers were read; until then a GPU no VM has is not called
     * free (a container may share it), only named.
     */
    public static String treeLabel(GpuInfo g, Optional<GpuShare> share, boolean usesRead, I18n i18n) {
        String use = treeUse(g, share, i18n);
        if (use.isEmpty() && !usesRead && g.free()) {
            return ConsoleFormat.compactName(g.name()) + " · " + g.address().toString().substring(5);
        }
        return use.isEmpty() ? ConsoleFormat.gpuTreeLabel(g, i18n)
                : ConsoleFormat.compactName(g.name()) + " · " + g.address().toString().substring(5) + use;
    }

    /** A GPU's tooltip in the tree: its whole label, then its use and driver when its node's host was read. */
    public static String tooltip(GpuInfo g, Optional<GpuShare> share, I18n i18n) {
        String base = ConsoleFormat.gpuLabel(g, i18n);
        if (share.isEmpty()) {
            return base;
        }
        return base + "\n" + i18n.get("share.gpu.use", use(g, share, i18n)) + "\n"
                + i18n.get("share.gpu.driver", share.get().driver().orElse(i18n.get("value.unknown")));
    }

    /** The long form: "VM 101", "shared by 2 containers: 201 media-01 (old way), 202", "free", "unknown". */
    public static String use(GpuInfo g, Optional<GpuShare> share, I18n i18n) {
        List<ContainerUse> cts = containers(share);
        String shared = cts.isEmpty() ? "" : i18n.get("share.gpu.sharedBy", cts.size(), list(cts, i18n));
        if (g.assignedTo().isPresent()) {
            String vm = i18n.get("console.gpu.assigned", g.assignedTo().get().id()) + ConsoleFormat.alsoIn(g, i18n);
            return shared.isEmpty() ? vm : vm + "; " + shared;
        }
        if (!shared.isEmpty()) {
            return shared;
        }
        return i18n.get(g.assignmentKnown() ? "cluster.gpu.free" : "cluster.gpu.unknown");
    }

    /** "201 media-01 (old way), 202 cuda-02". */
    public static String list(List<ContainerUse> cts, I18n i18n) {
        return cts.stream().map(c -> c.vmid() + (c.name().isEmpty() ? "" : " " + c.name())
                + (c.legacy() ? i18n.get("share.gpu.oldWay") : "")).collect(Collectors.joining(", "));
    }

    /** The driver the node's host says holds the GPU, or why it is not known. */
    public static String driver(GpuInfo g, Optional<NodeShares> shares, I18n i18n) {
        if (shares.isEmpty()) {
            return "";
        }
        return shares.get().driver(g.address()).orElse(i18n.get("value.unknown"));
    }
}
