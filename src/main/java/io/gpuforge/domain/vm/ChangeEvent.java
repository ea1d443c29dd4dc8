package io.gpuforge.domain.vm;

import java.util.Objects;
import java.util.Optional;

/**
 * Something changed on a connection: a VM's state or configuration, a VM appeared or went away, a node's
 * state, a task ended, or the connection itself. Receivers reload what the event names (or everything for
 * {@link Kind#INVENTORY}); several events in a burst are coalesced by the receiver.
 */
public record ChangeEvent(Kind kind, Optional<String> node, Optional<VmRef> vm, String detail) {

    public enum Kind { VM_STATE, VM_CONFIG, VM_ADDED, VM_REMOVED, NODE_STATE, TASK, CONNECTION, INVENTORY }

    public ChangeEvent {
        Objects.requireNonNull(kind);
        Objects.requireNonNull(node);
        Objects.requireNonNull(vm);
        Objects.requireNonNull(detail);
    }

    public static ChangeEvent ofVm(Kind kind, VmRef vm, String detail) {
        return new ChangeEvent(kind, Optional.of(vm.node()), Optional.of(vm), detail);
    }

    public static ChangeEvent of(Kind kind, String detail) {
        return new ChangeEvent(kind, Optional.empty(), Optional.empty(), detail);
    }
}
