package io.gpuforge.domain.share;

import io.gpuforge.domain.passthrough.Check;
import io.gpuforge.domain.passthrough.Verdict;
import io.gpuforge.domain.pci.PciAddress;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Whether a host's GPU can be shared with containers, and with what: the host driver and its version, the Proxmox
 * version ({@code devN} needs 8.1), the device nodes a container gets, and the checks behind the verdict (their
 * texts in {@code passthrough/messages*.properties}, keys {@code share.*}).
 *
 * @param devices the {@code devN} entries a container gets for this GPU (empty when blocked)
 * @param hostFixes what the host plan fixes (NVIDIA's {@code /dev/nvidia-uvm} made at boot), for the notes
 */
public record ShareReadiness(PciAddress gpu, ShareWay way, Optional<String> vendor, Optional<String> hostDriver,
                             Optional<String> driverVersion, Optional<String> proxmoxVersion, List<Check> checks,
                             Verdict verdict, List<ContainerDevice> devices, List<String> hostFixes) {

    public ShareReadiness {
        Objects.requireNonNull(gpu);
        Objects.requireNonNull(way);
        checks = List.copyOf(checks);
        devices = List.copyOf(devices);
        hostFixes = List.copyOf(hostFixes);
    }
}
