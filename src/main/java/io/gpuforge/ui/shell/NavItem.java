package io.gpuforge.ui.shell;

import java.util.Objects;

/**
 * One entry of the navigation tree. {@code labelKey} is a bundle key when {@code localized}, otherwise the
 * literal label (a host name, a VM name).
 */
public record NavItem(Kind kind, String id, String label, boolean localized) {

    public enum Kind { CONNECTION, NODE, VM, GPU }

    public NavItem {
        Objects.requireNonNull(kind);
        Objects.requireNonNull(id);
        Objects.requireNonNull(label);
    }

    public static NavItem thisComputer() {
        return new NavItem(Kind.CONNECTION, "local", "connection.local", true);
    }
}
