package io.gpuforge.share;

import io.gpuforge.domain.host.HostFacts;
import io.gpuforge.domain.pci.PciDevice;
import io.gpuforge.domain.share.ContainerDevice;
import io.gpuforge.domain.share.ContainerInfo;
import io.gpuforge.domain.share.ContainerUse;
import io.gpuforge.domain.share.GpuShare;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Which containers of a node share which of its GPUs, with the nodes each holds, whether by {@code devN} or the old
 * way. With the node's host facts every node is matched to its GPU; without them (the node not linked to its host),
 * the containers are listed under no GPU, never guessed.
 */
public final class ShareUsage {

    private ShareUsage() {
    }

    public static List<GpuShare> of(String node, Optional<HostFacts> facts, List<ContainerInfo> containers) {
        Map<String, List<ContainerUse>> byGpu = new LinkedHashMap<>();
        Map<String, PciDevice> gpus = new LinkedHashMap<>();
        Optional<DeviceOwners> owners = facts.map(DeviceOwners::new);
        owners.ifPresent(o -> o.gpus().forEach(g -> {
            gpus.put(g.address().toString(), g);
            byGpu.put(g.address().toString(), new ArrayList<>());
        }));
        List<ContainerUse> unmatched = new ArrayList<>();
        for (ContainerInfo c : containers) {
            List<String> viaDevN = c.devices().values().stream().map(ContainerDevice::path)
                    .filter(p -> p.matches("/dev/(dri/.*|nvidia.*|kfd)")).toList();
            List<String> viaLegacy = LegacyLines.gpuPaths(c.lxc());
            if (viaDevN.isEmpty() && viaLegacy.isEmpty()) {
                continue;
            }
            Map<String, Set<String>> held = new LinkedHashMap<>();
            Map<String, Boolean> legacy = new LinkedHashMap<>();
            Set<String> orphan = new LinkedHashSet<>();
            for (String p : concat(viaDevN, viaLegacy)) {
                List<PciDevice> of = owners.map(o -> o.gpusOf(p)).orElse(List.of());
                if (of.isEmpty()) {
                    orphan.add(p);
                }
                for (PciDevice g : of) {
                    held.computeIfAbsent(g.address().toString(), k -> new LinkedHashSet<>()).add(p);
                    legacy.merge(g.address().toString(), viaLegacy.contains(p), Boolean::logicalOr);
                }
            }
            // NVIDIA's shared nodes alone (nvidiactl without any /dev/nvidiaN) do not make a container a GPU's user
            held.entrySet().removeIf(e -> gpus.get(e.getKey()).driver().filter("nvidia"::equals).isPresent()
                    && e.getValue().stream().noneMatch(p -> p.matches("/dev/nvidia\\d+")));
            held.forEach((gpu, paths) -> byGpu.get(gpu).add(new ContainerUse(c.vmid(), c.name(), c.status(),
                    List.copyOf(paths), legacy.get(gpu))));
            if (held.isEmpty()) {
                unmatched.add(new ContainerUse(c.vmid(), c.name(), c.status(), List.copyOf(concat(viaDevN, viaLegacy)),
                        !viaLegacy.isEmpty()));
            }
        }
        List<GpuShare> out = new ArrayList<>();
        byGpu.forEach((gpu, uses) -> {
            PciDevice d = gpus.get(gpu);
            out.add(new GpuShare(node, Optional.of(gpu), d.name(), d.driver(), uses));
        });
        if (!unmatched.isEmpty()) {
            out.add(new GpuShare(node, Optional.empty(), Optional.empty(), Optional.empty(), unmatched));
        }
        return out;
    }

    private static List<String> concat(List<String> a, List<String> b) {
        Set<String> s = new LinkedHashSet<>(a);
        s.addAll(b);
        return new ArrayList<>(s);
    }
}
