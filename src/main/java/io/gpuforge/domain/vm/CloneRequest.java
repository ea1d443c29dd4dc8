package io.gpuforge.domain.vm;

import java.util.Objects;
import java.util.Optional;

/**
 * Clone a VM or template: the new name, the node it goes to (the source's when empty), a full or a linked
 * clone, and the target storage of a full clone.
 */
public record CloneRequest(VmRef source, String name, Optional<String> targetNode, boolean full,
                           Optional<String> storage) {

    public CloneRequest {
        Objects.requireNonNull(source);
        Objects.requireNonNull(name);
        Objects.requireNonNull(targetNode);
        Objects.requireNonNull(storage);
        if (!name.matches("[A-Za-z0-9][A-Za-z0-9.-]{0,62}")) {
            throw new IllegalArgumentException("A VM name is letters, digits, '.' and '-' (at most 63): '" + name + "'");
        }
    }
}
