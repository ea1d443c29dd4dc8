package io.gpuforge.ui.cluster;

import io.gpuforge.domain.ClusterInventory;
import io.gpuforge.domain.GpuInfo;
import io.gpuforge.domain.pci.PciDevice;
import io.gpuforge.domain.share.GpuShare;
import io.gpuforge.domain.share.NodeShares;
import io.gpuforge.ui.common.I18n;
import java.util.Map;
import java.util.Optional;

/**
 * The line above a connection's VM table, from its inventory and what its nodes' hosts say of containers: what
 * answers, and the counts every command gives (VMs without templates, templates and containers apart), then each GPU
 * with its holder as the tree names it. Pure.
 */
final class ClusterHeader {

    private ClusterHeader() {
    }

    static String of(ClusterInventory inv, String error, I18n i18n) {
        return of(inv, Map.of(), error, i18n);
    }

    /** {@code shares}: per node, its containers' use of its GPUs, for the nodes read so far. */
    static String of(ClusterInventory inv, Map<String, NodeShares> shares, String error, I18n i18n) {
        if (error != null) {
            return i18n.get("cluster.error", error);
        }
        if (inv == null) {
            return i18n.get("cluster.loading");
        }
        StringBuilder s = new StringBuilder(i18n.get("cluster.header", inv.name(), inv.backendVersion(),
                inv.nodes().size(), inv.vms().stream().filter(v -> !v.template()).count(), inv.templates().size(),
                inv.containers().size(), inv.gpus().size()));
        Map<String, NodeShares> read = shares == null ? Map.of() : shares;
        for (GpuInfo g : inv.gpus()) {
            Optional<NodeShares> onNode = Optional.ofNullable(read.get(g.node()));
            Optional<GpuShare> share = onNode.flatMap(x -> x.of(g.address()));
            // a GPU no VM has is free only once its node's containers were read
            String use = onNode.isEmpty() && g.assignedTo().isEmpty() && g.free()
                    ? i18n.get("cluster.gpu.noVm") : ShareFormat.use(g, share, i18n);
            // the model as inventory and gpu list name it ("NVIDIA GeForce RTX 3090"), or the mapping that names it
            s.append("\n  ").append(i18n.get("cluster.gpu", g.mapping().orElse(PciDevice.modelName(g.name())),
                    g.node(), g.address(),
                    g.ids().orElse("?"), use));
        }
        return s.toString();
    }
}
