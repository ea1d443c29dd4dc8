package io.gpuforge.domain.share;

import io.gpuforge.domain.pci.PciAddress;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * How a node's GPUs are used by its containers, and which driver holds each, as read together: one {@link GpuShare}
 * per GPU of the node's host (those no container uses too), plus one with no GPU for device nodes no GPU could be
 * matched to; {@code drivers} by PCI address, for every GPU of the host (one on vfio-pci too). {@code factsMissing}
 * says why the host could not be read (no host linked to the node…): then no
 * driver is known and every container's devices are listed under no GPU; {@code containersMissing} says why the
 * containers could not be read (the backend has none, or the read failed).
 */
public record NodeShares(String node, List<GpuShare> gpus, Map<String, String> drivers, Optional<String> factsMissing,
                         Optional<String> containersMissing) {

    public NodeShares {
        Objects.requireNonNull(node);
        gpus = List.copyOf(gpus);
        drivers = Map.copyOf(drivers);
        Objects.requireNonNull(factsMissing);
        Objects.requireNonNull(containersMissing);
    }

    /** What the node's host says of the GPU at {@code card} (function 0, or any function of the same card). */
    public Optional<GpuShare> of(PciAddress card) {
        return gpus.stream().filter(g -> g.gpu().map(a -> sameCard(a, card)).orElse(false)).findFirst();
    }

    /** The driver that holds the GPU (vfio-pci for one passed through), when the node's host was read. */
    public Optional<String> driver(PciAddress card) {
        return drivers.entrySet().stream().filter(e -> sameCard(e.getKey(), card)).map(Map.Entry::getValue)
                .findFirst().or(() -> of(card).flatMap(GpuShare::driver));
    }

    /** The containers that share the GPU (empty when none, or when it is not known). */
    public List<ContainerUse> containers(PciAddress card) {
        return of(card).map(GpuShare::containers).orElse(List.of());
    }

    /** Containers with GPU devices that no GPU of the host could be matched to. */
    public List<ContainerUse> unmatched() {
        return gpus.stream().filter(g -> g.gpu().isEmpty()).flatMap(g -> g.containers().stream()).toList();
    }

    /** The GPU a container shares, when one is known. */
    public Optional<GpuShare> sharedBy(int vmid) {
        return gpus.stream().filter(g -> g.gpu().isPresent() && g.containers().stream().anyMatch(c -> c.vmid() == vmid))
                .findFirst();
    }

    /** What a container holds of a GPU (matched to one or not): its device nodes, and whether the old way. */
    public Optional<ContainerUse> use(int vmid) {
        return gpus.stream().flatMap(g -> g.containers().stream()).filter(c -> c.vmid() == vmid).findFirst();
    }

    private static boolean sameCard(String address, PciAddress card) {
        try {
            return PciAddress.parse(address).sameSlot(card);
        } catch (IllegalArgumentException e) {
            return false;
        }
    }
}
