package io.gpuforge.ui.shell;

import io.gpuforge.domain.ClusterInventory;
import io.gpuforge.domain.connections.ConnectionInfo;
import io.gpuforge.domain.GpuInfo;
import io.gpuforge.domain.NodeInfo;
import io.gpuforge.domain.vm.VmInfo;
import io.gpuforge.domain.share.ContainerSummary;
import io.gpuforge.domain.share.GpuShare;
import io.gpuforge.domain.share.NodeShares;
import io.gpuforge.ui.cluster.ConsoleFormat;
import io.gpuforge.ui.cluster.ShareFormat;
import io.gpuforge.ui.common.I18n;
import io.gpuforge.ui.common.NavItem;
import io.gpuforge.ui.common.NavTarget;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What the tree shows below a hypervisor connection, from its inventory: its nodes, and under each node its VMs
 * (templates too) by id, its containers by id and its GPUs by address (with the containers that share each, when
 * its node's host was read), each item carrying what it stands for. A filter keeps the VMs and
 * GPUs whose label (a GPU's whole label, as its tooltip shows it) holds it (case does not matter) and the nodes that
 * hold one of them or whose name holds it.
 * Pure: the tree applies the result with {@link TreeSync}.
 */
final class TreeContent {

    private static final Comparator<VmInfo> BY_ID = Comparator.comparing((VmInfo v) -> v.ref().id().length())
            .thenComparing(v -> v.ref().id());

    private TreeContent() {
    }

    static List<TreeSync.Wanted> of(ConnectionInfo c, ClusterInventory inv, String filter, I18n i18n) {
        return of(c, inv, Map.of(), filter, i18n);
    }

    /** As above, with what each node's host says of its GPUs' use by containers (read after the inventory). */
    static List<TreeSync.Wanted> of(ConnectionInfo c, ClusterInventory inv, Map<String, NodeShares> shares,
                                    String filter, I18n i18n) {
        String f = filter == null ? "" : filter.strip().toLowerCase(Locale.ROOT);
        List<TreeSync.Wanted> nodes = new ArrayList<>();
        for (NodeInfo n : inv.nodes()) {
            boolean nodeMatches = f.isEmpty() || n.name().toLowerCase(Locale.ROOT).contains(f);
            List<TreeSync.Wanted> children = new ArrayList<>();
            List<VmInfo> vms = new ArrayList<>(inv.vmsOn(n.name()));
            vms.sort(BY_ID);
            for (VmInfo v : vms) {
                String label = ConsoleFormat.vmLabel(v);
                if (nodeMatches || label.toLowerCase(Locale.ROOT).contains(f)) {
                    children.add(TreeSync.Wanted.leaf(new NavItem(NavItem.Kind.VM, vmId(c, v), label, false,
                            Optional.of(c), Optional.of(NavTarget.vm(v)))));
                }
            }
            Optional<NodeShares> onNode = Optional.ofNullable(shares.get(n.name()));
            List<ContainerSummary> cts = new ArrayList<>(inv.containersOn(n.name()));
            cts.sort(Comparator.comparingInt(ContainerSummary::vmid));
            for (ContainerSummary ct : cts) {
                String label = ctLabel(ct);
                if (nodeMatches || label.toLowerCase(Locale.ROOT).contains(f)) {
                    children.add(TreeSync.Wanted.leaf(new NavItem(NavItem.Kind.CONTAINER, "conn:" + c.id() + "/node:"
                            + n.name() + "/ct:" + ct.vmid(), label, false, Optional.of(c), Optional.of(
                            NavTarget.container(ct, onNode.flatMap(s -> s.sharedBy(ct.vmid())))))));
                }
            }
            List<GpuInfo> gpus = new ArrayList<>(inv.gpusOn(n.name()));
            gpus.sort(Comparator.comparing(g -> g.address().toString()));
            for (GpuInfo g : gpus) {
                Optional<GpuShare> share = onNode.flatMap(s -> s.of(g.address()));
                // the row is short; a search finds what its tooltip says as well (the vendor's name, the mapping)
                if (nodeMatches || ShareFormat.tooltip(g, share, i18n).toLowerCase(Locale.ROOT).contains(f)) {
                    children.add(TreeSync.Wanted.leaf(new NavItem(NavItem.Kind.GPU, NavItem.gpuId(c, n.name(),
                            g.address().toString()), ShareFormat.treeLabel(g, share, onNode.isPresent(), i18n), false,
                            Optional.of(c), Optional.of(NavTarget.gpu(g, share)))));
                }
            }
            if (nodeMatches || !children.isEmpty()) {
                nodes.add(new TreeSync.Wanted(NavItem.node(c, n.name()), children));
            }
        }
        return nodes;
    }

    /** Every id of a content, at any depth. */
    static Set<String> ids(List<TreeSync.Wanted> wanted) {
        Set<String> out = new HashSet<>();
        for (TreeSync.Wanted w : wanted) {
            out.add(w.item().id());
            if (w.children() != null) {
                out.addAll(ids(w.children()));
            }
        }
        return out;
    }

    /** A container as the tree lists it: "CT 201 media-01". */
    static String ctLabel(ContainerSummary ct) {
        return "CT " + ct.vmid() + " " + ct.name();
    }

    static String vmId(ConnectionInfo c, VmInfo v) {
        return "conn:" + c.id() + "/node:" + v.ref().node() + "/vm:" + v.ref().id();
    }
}
