package io.gpuforge.passthrough;

import java.util.List;

/**
 * The vfio modules the initramfs must load for this kernel, and the ones that no longer exist.
 *
 * @param names in load order
 * @param obsolete names an older setup may list that this kernel lacks (vfio_virqfd went into vfio in 6.2)
 */
record VfioModules(List<String> names, List<String> obsolete) {

    VfioModules {
        names = List.copyOf(names);
        obsolete = List.copyOf(obsolete);
    }

    static VfioModules forKernel(String release) {
        List<String> base = List.of("vfio", "vfio_iommu_type1", "vfio_pci");
        if (KernelVersion.atLeast(release, 6, 2)) {
            return new VfioModules(base, List.of("vfio_virqfd"));
        }
        return new VfioModules(List.of("vfio", "vfio_iommu_type1", "vfio_pci", "vfio_virqfd"), List.of());
    }

    /** Whether a module list entry names an obsolete module, spelt with '_' or '-'. */
    boolean isObsolete(String entry) {
        String e = entry.strip();
        return obsolete.stream().anyMatch(o -> e.equals(o) || e.equals(o.replace('_', '-')));
    }
}
