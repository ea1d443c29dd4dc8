package io.gpuforge.domain.telemetry;

import io.gpuforge.domain.share.ContainerUse;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import io.gpuforge.domain.vm.VmRef;
import io.gpuforge.domain.vm.VmState;
import io.gpuforge.domain.connections.ConnectionInfo;

/**
 * A GPU of the fleet view: which connection and host it is in, its PCI address, model and driver, the VM it is
 * assigned to and that VM's state (the running one, else the lowest id, when several VMs name it: the others are
 * {@code alsoIn}), the containers that share it, whether it is free, and where its readings come from (empty while
 * none arrived).
 * {@code id} is the telemetry id of its readings once they arrive; {@code target} is what reads it (and where a power
 * limit is set). Live values are not here: they come with the samples.
 */
public record FleetGpu(GpuId id, String connection, Optional<ConnectionInfo> connectionInfo, String host,
                       Optional<String> address, String model, Optional<String> driver, Optional<VmRef> vmRef,
                       Optional<String> vm, Optional<VmState> vmState, Availability availability,
                       Optional<GpuTarget> target, List<ContainerUse> containers, List<OtherVm> alsoIn) {

    /** Another VM whose configuration names the GPU (only one of them can start with it). */
    public record OtherVm(VmRef ref, String name) {
        public OtherVm {
            Objects.requireNonNull(ref);
            Objects.requireNonNull(name);
        }
    }

    /** Whether a VM has the GPU. */
    public enum Availability {
        /** No VM has it. */
        FREE,
        /** A running VM has it. */
        IN_USE,
        /** A VM that is not running has it. */
        ASSIGNED,
        /** No VM has it; containers share it. */
        SHARED,
        /** The backend cannot tell without reading every VM's configuration. */
        UNKNOWN
    }

    public FleetGpu {
        Objects.requireNonNull(id);
        Objects.requireNonNull(connection);
        Objects.requireNonNull(connectionInfo);
        Objects.requireNonNull(host);
        Objects.requireNonNull(address);
        Objects.requireNonNull(model);
        Objects.requireNonNull(driver);
        Objects.requireNonNull(vmRef);
        Objects.requireNonNull(vm);
        Objects.requireNonNull(vmState);
        Objects.requireNonNull(availability);
        Objects.requireNonNull(target);
        containers = List.copyOf(containers);
        alsoIn = List.copyOf(alsoIn);
    }

    /** A row that at most one VM names. */
    public FleetGpu(GpuId id, String connection, Optional<ConnectionInfo> connectionInfo, String host,
                    Optional<String> address, String model, Optional<String> driver, Optional<VmRef> vmRef,
                    Optional<String> vm, Optional<VmState> vmState, Availability availability,
                    Optional<GpuTarget> target, List<ContainerUse> containers) {
        this(id, connection, connectionInfo, host, address, model, driver, vmRef, vm, vmState, availability, target,
                containers, List.of());
    }

    /** A row without containers (readings that match no listed GPU, a backend without containers). */
    public FleetGpu(GpuId id, String connection, Optional<ConnectionInfo> connectionInfo, String host,
                    Optional<String> address, String model, Optional<String> driver, Optional<VmRef> vmRef,
                    Optional<String> vm, Optional<VmState> vmState, Availability availability,
                    Optional<GpuTarget> target) {
        this(id, connection, connectionInfo, host, address, model, driver, vmRef, vm, vmState, availability, target,
                List.of());
    }

    /** The same GPU under the id its readings carry. */
    public FleetGpu withId(GpuId readings) {
        return new FleetGpu(readings, connection, connectionInfo, host, address, model, driver, vmRef, vm, vmState,
                availability, target, containers, alsoIn);
    }

    public FleetGpu withModel(String m) {
        return new FleetGpu(id, connection, connectionInfo, host, address, m, driver, vmRef, vm, vmState, availability,
                target, containers, alsoIn);
    }
}
