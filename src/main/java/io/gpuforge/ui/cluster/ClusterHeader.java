package io.gpuforge.ui.cluster;

import io.gpuforge.domain.ClusterInventory;
import io.gpuforge.domain.GpuInfo;
import io.gpuforge.ui.common.I18n;

/** The line above a connection's VM table, from its inventory: what answers, nodes, VMs, GPUs. Pure. */
final class ClusterHeader {

    private ClusterHeader() {
    }

    static String of(ClusterInventory inv, String error, I18n i18n) {
        if (error != null) {
            return i18n.get("cluster.error", error);
        }
        if (inv == null) {
            return i18n.get("cluster.loading");
        }
        StringBuilder s = new StringBuilder(i18n.get("cluster.header", inv.name(), inv.backendVersion(), inv.nodes().size(),
                inv.vms().stream().filter(v -> !v.template()).count(), inv.templates().size(), inv.gpus().size()));
        for (GpuInfo g : inv.gpus()) {
            s.append("\n  ").append(i18n.get("cluster.gpu", g.mapping().orElse(g.name()), g.node(), g.address(),
                    g.ids().orElse("?"), g.assignedTo().map(v -> i18n.get("cluster.gpu.assigned", v.id()))
                            .orElse(i18n.get(g.assignmentKnown() ? "cluster.gpu.free" : "cluster.gpu.unknown"))));
        }
        return s.toString();
    }
}
