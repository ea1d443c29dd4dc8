package io.gpuforge.share;

import io.gpuforge.domain.host.HostFacts;
import io.gpuforge.domain.passthrough.Check;
import io.gpuforge.domain.passthrough.Check.Status;
import io.gpuforge.domain.passthrough.Verdict;
import io.gpuforge.domain.pci.PciAddress;
import io.gpuforge.domain.pci.PciDevice;
import io.gpuforge.domain.share.ContainerDevice;
import io.gpuforge.domain.share.ShareReadiness;
import io.gpuforge.domain.share.ShareWay;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

/**
 * Whether a GPU can be shared with Proxmox containers: it stays on its host driver (a GPU on vfio-pci is passed
 * through, not shared), Proxmox knows {@code devN} (8.1+), and its device nodes exist, or the plan makes them (NVIDIA's
 * {@code /dev/nvidia-uvm} appears only after the driver's first use). The {@code devN} entries follow from the nodes.
 */
public final class ShareChecks {

    /** Host drivers that give containers device nodes to share. */
    static final Set<String> SHARING_DRIVERS = Set.of("nvidia", "amdgpu", "i915", "xe", "radeon", "nouveau");

    private ShareChecks() {
    }

    public static ShareReadiness evaluate(HostFacts f, PciAddress address) {
        ShareFacts s = new ShareFacts(f);
        PciDevice gpu = f.pci().device(address).orElseThrow(() -> new IllegalArgumentException(
                "no device " + address + " on " + f.summary().hostname()));
        List<Check> checks = new ArrayList<>();
        List<ContainerDevice> devices = new ArrayList<>();
        List<String> hostFixes = new ArrayList<>();
        Optional<String> driver = gpu.driver();
        Optional<String> version = s.driverVersion(gpu);
        checks.add(driver(gpu, version));
        checks.add(proxmox(f, s));
        if (driver.filter(SHARING_DRIVERS::contains).isPresent()) {
            if (driver.get().equals("nvidia")) {
                nvidia(s, gpu, checks, devices, hostFixes);
            } else {
                drm(s, gpu, checks, devices);
            }
        }
        return new ShareReadiness(address, ShareWay.CONTAINERS, ShareFacts.vendor(gpu), driver, version,
                s.proxmoxVersion(), checks, verdict(checks, hostFixes), verdictBlocks(checks) ? List.of() : devices,
                hostFixes);
    }

    private static Check driver(PciDevice gpu, Optional<String> version) {
        String addr = gpu.address().toString();
        Optional<String> d = gpu.driver();
        if (d.isEmpty()) {
            return Check.of("share.driver", Status.FAIL, "share.driver.none", addr);
        }
        if (d.get().equals("vfio-pci")) {
            return Check.of("share.driver", Status.FAIL, "share.driver.vfio", addr);
        }
        if (!SHARING_DRIVERS.contains(d.get())) {
            return Check.of("share.driver", Status.FAIL, "share.driver.other", addr, d.get());
        }
        return Check.of("share.driver", Status.PASS, "share.driver.pass", addr, d.get(),
                version.orElse("?"));
    }

    private static Check proxmox(HostFacts f, ShareFacts s) {
        if (!f.proxmox()) {
            return Check.of("share.proxmox", Status.FAIL, "share.proxmox.none", f.summary().hostname());
        }
        Optional<Boolean> devN = s.knowsDevN();
        if (devN.isEmpty()) {
            return Check.of("share.proxmox", Status.UNKNOWN, "share.proxmox.unknown");
        }
        String v = s.proxmoxVersion().orElseThrow();
        return devN.get() ? Check.of("share.proxmox", Status.PASS, "share.proxmox.pass", v)
                : Check.of("share.proxmox", Status.FAIL, "share.proxmox.old", v);
    }

    private static void nvidia(ShareFacts s, PciDevice gpu, List<Check> checks, List<ContainerDevice> devices,
                               List<String> hostFixes) {
        OptionalInt minor = s.nvidiaMinor(gpu);
        if (minor.isEmpty()) {
            checks.add(Check.of("share.nodes", Status.FAIL, "share.nodes.minor", gpu.address().toString()));
            return;
        }
        String node = "/dev/nvidia" + minor.getAsInt();
        List<String> missing = new ArrayList<>();
        for (String p : List.of(node, "/dev/nvidiactl")) {
            if (!s.exists(p)) {
                missing.add(p);
            }
        }
        boolean uvm = s.exists("/dev/nvidia-uvm") && s.exists("/dev/nvidia-uvm-tools");
        boolean unit = s.host().files().containsKey(SharePlanner.UNIT_PATH);
        if (!missing.isEmpty()) {
            checks.add(Check.of("share.nodes", Status.FAIL, "share.nodes.missing", String.join(", ", missing)));
        } else if (!s.exists("/usr/bin/nvidia-modprobe")) {
            checks.add(Check.of("share.nodes", uvm ? Status.WARN : Status.FAIL, "share.nodes.modprobe"));
        } else if (!uvm || !unit) {
            checks.add(Check.of("share.nodes", Status.WARN, "share.nodes.uvm"));
            hostFixes.add("share.nodes");
        } else {
            checks.add(Check.of("share.nodes", Status.PASS, "share.nodes.pass", node));
        }
        devices.add(ContainerDevice.of(node));
        devices.add(ContainerDevice.of("/dev/nvidiactl"));
        devices.add(ContainerDevice.of("/dev/nvidia-uvm"));
        devices.add(ContainerDevice.of("/dev/nvidia-uvm-tools"));
        s.nvidiaCaps().forEach(c -> devices.add(ContainerDevice.of(c)));
    }

    private static void drm(ShareFacts s, PciDevice gpu, List<Check> checks, List<ContainerDevice> devices) {
        List<String> nodes = new ArrayList<>(s.drmNodes(gpu));
        Optional<String> card = nodes.stream().filter(n -> n.startsWith("card")).findFirst();
        Optional<String> render = nodes.stream().filter(n -> n.startsWith("renderD")).findFirst();
        if (card.isEmpty() || render.isEmpty() || !s.exists("/dev/dri/" + card.get())
                || !s.exists("/dev/dri/" + render.get())) {
            checks.add(Check.of("share.nodes", Status.FAIL, "share.nodes.dri", gpu.address().toString()));
            return;
        }
        OptionalInt video = s.gid("video");
        OptionalInt renderGid = s.gid("render");
        checks.add(video.isPresent() && renderGid.isPresent()
                ? Check.of("share.nodes", Status.PASS, "share.nodes.dri.pass", "/dev/dri/" + card.get(),
                "/dev/dri/" + render.get(), String.valueOf(video.getAsInt()), String.valueOf(renderGid.getAsInt()))
                : Check.of("share.nodes", Status.WARN, "share.nodes.gid"));
        ContainerDevice c = ContainerDevice.of("/dev/dri/" + card.get());
        ContainerDevice r = ContainerDevice.of("/dev/dri/" + render.get());
        devices.add(video.isPresent() ? c.withGid(video.getAsInt()) : c);
        devices.add(renderGid.isPresent() ? r.withGid(renderGid.getAsInt()) : r);
    }

    private static boolean verdictBlocks(List<Check> checks) {
        return checks.stream().anyMatch(c -> c.status() == Status.FAIL);
    }

    private static Verdict verdict(List<Check> checks, List<String> hostFixes) {
        List<String> failed = checks.stream().filter(c -> c.status() == Status.FAIL).map(Check::id).toList();
        if (!failed.isEmpty()) {
            return new Verdict(Verdict.Kind.BLOCKED, failed);
        }
        if (!hostFixes.isEmpty()) {
            return new Verdict(Verdict.Kind.NEEDS_HOST_SETUP, hostFixes);
        }
        return new Verdict(Verdict.Kind.READY, checks.stream().filter(c -> c.status() != Status.PASS)
                .map(Check::id).toList());
    }
}
