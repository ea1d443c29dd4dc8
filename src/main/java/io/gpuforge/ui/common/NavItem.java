package io.gpuforge.ui.common;

import io.gpuforge.domain.ConnectionInfo;
import java.util.Objects;
import java.util.Optional;

/**
 * One entry of the navigation tree. {@code labelKey} is a bundle key when {@code localized}, otherwise the
 * literal label (a host name, a VM name).
 */
public record NavItem(Kind kind, String id, String label, boolean localized, Optional<ConnectionInfo> connection) {

    public enum Kind { CONNECTION, NODE, VM, GPU }

    public NavItem {
        Objects.requireNonNull(kind);
        Objects.requireNonNull(id);
        Objects.requireNonNull(label);
        Objects.requireNonNull(connection);
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
}
