package io.gpuforge.ui.common;

import io.gpuforge.domain.connections.ConnectionInfo;
import java.util.Objects;
import java.util.Optional;

/**
 * One entry of the navigation tree. {@code labelKey} is a bundle key when {@code localized}, otherwise the
 * literal label (a host name, a VM name). Items below a hypervisor connection name what they stand for in
 * {@code target} (node, VM, container, GPU).
 */
public record NavItem(Kind kind, String id, String label, boolean localized, Optional<ConnectionInfo> connection,
                      Optional<NavTarget> target) {

    public enum Kind { CONNECTION, NODE, VM, CONTAINER, GPU }

    public NavItem {
        Objects.requireNonNull(kind);
        Objects.requireNonNull(id);
        Objects.requireNonNull(label);
        Objects.requireNonNull(connection);
        Objects.requireNonNull(target);
    }

    public NavItem(Kind kind, String id, String label, boolean localized, Optional<ConnectionInfo> connection) {
        this(kind, id, label, localized, connection, Optional.empty());
    }

    public NavItem(Kind kind, String id, String label, boolean localized) {
        this(kind, id, label, localized, Optional.empty());
    }

    public static NavItem thisComputer() {
        return new NavItem(Kind.CONNECTION, "local", "connection.local", true);
    }

    public static NavItem of(ConnectionInfo c) {
        return new NavItem(Kind.CONNECTION, "conn:" + c.id(), c.name(), false, Optional.of(c));
    }

    /** A node of a hypervisor connection. */
    public static NavItem node(ConnectionInfo c, String node) {
        return new NavItem(Kind.NODE, "conn:" + c.id() + "/node:" + node, node, false, Optional.of(c),
                Optional.of(NavTarget.node(node)));
    }

    /** The id of a GPU's row below its node: what the tree and what watches the GPU's readings both name it by. */
    public static String gpuId(ConnectionInfo c, String node, String address) {
        return "conn:" + c.id() + "/node:" + node + "/gpu:" + address;
    }

    /** The node, VM or GPU this item stands for, when it is below a hypervisor connection. */
    public Optional<String> node() {
        return target.map(NavTarget::node);
    }
}
