package io.gpuforge.app.backends;

import io.gpuforge.hypervisor.proxmox.PveApi;
import java.util.ArrayList;
import java.util.List;

/**
 * The Proxmox VE privileges GPUForge's features need, checked against what {@code /access/permissions} says a token
 * or user holds. Each requirement names the ACL path it is checked on, the privileges of which any one will do
 * (PVE itself accepts either for some calls), and the feature it serves (a stable id the window words).
 */
public final class PrivilegeCheck {

    /** What a missing privilege takes away: {@code purpose} is an id such as {@code gpu-attach}. */
    public record Missing(String privilege, String path, String purpose) {
    }

    record Requirement(String path, List<String> anyOf, String purpose) {
    }

    static final List<Requirement> REQUIRED = List.of(
            new Requirement("/", List.of("Sys.Audit", "Sys.Modify"), "node-pci"),
            new Requirement("/nodes", List.of("Sys.Audit"), "node-status"),
            new Requirement("/nodes", List.of("Sys.PowerMgmt"), "node-reboot"),
            new Requirement("/vms", List.of("VM.Audit"), "vm-read"),
            new Requirement("/vms", List.of("VM.PowerMgmt"), "vm-power"),
            new Requirement("/vms", List.of("VM.Config.HWType"), "gpu-attach"),
            new Requirement("/vms", List.of("VM.Config.Options"), "vm-firmware"),
            new Requirement("/vms", List.of("VM.Config.Memory"), "vm-memory"),
            new Requirement("/vms", List.of("VM.Config.Disk"), "vm-efidisk"),
            new Requirement("/vms", List.of("VM.Allocate"), "vm-create"),
            new Requirement("/vms", List.of("VM.Clone"), "vm-clone"),
            new Requirement("/vms", List.of("VM.Console"), "vm-console"),
            new Requirement("/vms", List.of("VM.Monitor"), "guest-agent"),
            new Requirement("/mapping/pci", List.of("Mapping.Audit", "Mapping.Use", "Mapping.Modify"), "mapping-read"),
            new Requirement("/mapping/pci", List.of("Mapping.Use"), "mapping-use"),
            new Requirement("/mapping/pci", List.of("Mapping.Modify"), "mapping-modify"));

    private PrivilegeCheck() {
    }

    /** The requirements {@code held} does not meet, in the order above; empty when everything is there. */
    public static List<Missing> missing(PveApi.Permissions held) {
        List<Missing> out = new ArrayList<>();
        for (Requirement r : REQUIRED) {
            if (r.anyOf().stream().noneMatch(p -> held.has(r.path(), p))) {
                out.add(new Missing(String.join(" / ", r.anyOf()), r.path(), r.purpose()));
            }
        }
        return out;
    }

    /** Every purpose id a requirement can name (the window has a text for each). */
    public static List<String> purposes() {
        return REQUIRED.stream().map(Requirement::purpose).distinct().toList();
    }
}
