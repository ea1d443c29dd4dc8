package io.gpuforge.app.vmcreate;

import io.gpuforge.domain.message.Message;
import io.gpuforge.domain.vm.CloneRequest;
import io.gpuforge.domain.vm.CloudInit;
import io.gpuforge.domain.passthrough.ConfigChange;
import io.gpuforge.domain.vm.VmConfig;
import io.gpuforge.domain.vm.VmDisk;
import io.gpuforge.domain.vm.VmField;
import io.gpuforge.domain.vm.VmInfo;
import io.gpuforge.hypervisor.proxmox.PveVmSpec;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A new VM as a clone of a Proxmox VE template VM, the wizard's and {@code gpuforge vm create --clone}'s other
 * source: {@code POST /nodes/{node}/qemu/{vmid}/clone} (a full copy of the disks onto a chosen storage, or a linked
 * clone that stays on the template's storage), then the wizard's cores, memory, CPU, network and cloud-init as one
 * configuration change. Pure: {@link VmProvisioning} runs it.
 */
final class VmClones {

    private VmClones() {
    }

    /** The storage of a VM's system disk: {@code local-zfs} of {@code local-zfs:base-9000-disk-0}. */
    static Optional<String> diskStorage(VmConfig cfg) {
        return cfg.details().disks().stream().filter(d -> !d.cdrom() && !d.slot().startsWith("efidisk")
                        && !d.slot().startsWith("tpmstate") && !d.source().contains("cloudinit"))
                .map(VmDisk::source).filter(s -> s.indexOf(':') > 0).map(s -> s.substring(0, s.indexOf(':')))
                .findFirst();
    }

    /** The request's problems as a clone. */
    static void check(VmProvisioning.Request r, VmProvisioning.Choices c, List<VmProvisioning.Problem> out) {
        VmProvisioning.Clone k = r.cloneOf().orElseThrow();
        VmInfo source = k.source();
        if (!c.canClone()) {
            out.add(new VmProvisioning.Problem(VmField.SOURCE, true, Message.of("problem.clone.unsupported")));
            return;
        }
        if (k.linked() && !source.template()) {
            out.add(new VmProvisioning.Problem(VmField.SOURCE, true, Message.of("problem.clone.linkedNeedsTemplate",
                    source.ref().id())));
        }
        if (k.linked() && k.sourceStorage().isPresent() && !k.sourceStorage().get().equals(r.storage())) {
            out.add(new VmProvisioning.Problem(VmField.STORAGE, true, Message.of("problem.clone.linkedStorage",
                    k.sourceStorage().get(), r.storage())));
        }
        int templateDisk = r.template().diskGiB();
        if (r.diskGiB() < templateDisk) {
            out.add(new VmProvisioning.Problem(VmField.DISK, true, Message.of("problem.clone.diskSmaller", templateDisk)));
        } else if (r.diskGiB() > templateDisk) {
            out.add(new VmProvisioning.Problem(VmField.DISK, false, Message.of("problem.clone.diskKept", templateDisk,
                    r.diskGiB())));
        }
        if (!source.ref().node().equals(r.target().node())) {
            out.add(new VmProvisioning.Problem(VmField.SOURCE, false, Message.of("problem.clone.otherNode",
                    source.ref().node(), r.target().node())));
        }
    }

    /** The clone call: to the target node when the template is elsewhere, onto the storage for a full clone. */
    static CloneRequest request(VmProvisioning.Request r) {
        VmProvisioning.Clone k = r.cloneOf().orElseThrow();
        String node = r.target().node();
        return new CloneRequest(k.source().ref(), r.name(), k.source().ref().node().equals(node) ? Optional.empty()
                : Optional.of(node), !k.linked(), k.linked() ? Optional.empty() : Optional.of(r.storage()));
    }

    /**
     * The keys set on the clone once it exists: cores, memory, CPU, the bridge of its NIC (its MAC kept), and
     * cloud-init (into the template's cloud-init drive, else a new one on the clone's disk storage).
     *
     * @param cloned the clone's settings as read (empty for the summary, before it exists)
     */
    static Map<String, String> settings(VmProvisioning.Request r, Map<String, String> cloned) {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("cores", String.valueOf(r.cores()));
        p.put("sockets", "1");
        p.put("memory", String.valueOf(r.memoryMiB()));
        p.put("cpu", r.cpuType());
        String net0 = cloned.get("net0");
        if (net0 != null && !r.network().isBlank() && !net0.contains("bridge=" + r.network())) {
            p.put("net0", net0.contains("bridge=") ? net0.replaceFirst("bridge=[^,]*", "bridge=" + r.network())
                    : net0 + ",bridge=" + r.network());
        }
        Optional<CloudInit> ci = r.cloudInit();
        if (ci.isPresent()) {
            Optional<String> drive = cloned.entrySet().stream().filter(e -> e.getValue().contains(":cloudinit"))
                    .map(Map.Entry::getKey).findFirst();
            String storage = r.cloneOf().flatMap(VmProvisioning.Clone::sourceStorage).filter(s -> r.cloneOf().get().linked())
                    .orElse(r.storage());
            PveVmSpec.cloudInit(p, ci.get(), storage);
            if (drive.isPresent()) {
                p.remove("ide2");
            }
        }
        return p;
    }

    static ConfigChange change(VmProvisioning.Request r, VmConfig cloned) {
        Map<String, Optional<String>> keys = new LinkedHashMap<>();
        settings(r, cloned.settings()).forEach((k, v) -> keys.put(k, Optional.of(v)));
        return new ConfigChange.Settings(keys);
    }

    /** What will be sent, for the summary. */
    static String preview(VmProvisioning.Request r) {
        CloneRequest c = request(r);
        StringBuilder out = new StringBuilder("GET /cluster/nextid\nPOST /nodes/").append(c.source().node())
                .append("/qemu/").append(c.source().id()).append("/clone\n  newid: <nextid>\n  name: ").append(c.name())
                .append("\n  full: ").append(c.full() ? "1   (a full copy of the template's disks)"
                        : "0   (linked: the disks stay on the template's storage)").append('\n');
        c.storage().ifPresent(s -> out.append("  storage: ").append(s).append('\n'));
        c.targetNode().ifPresent(t -> out.append("  target: ").append(t).append('\n'));
        out.append("PUT /nodes/").append(r.target().node()).append("/qemu/<newid>/config\n");
        PveVmSpec.shown(settings(r, Map.of())).forEach((k, v) -> out.append("  ").append(k).append(": ").append(v)
                .append('\n'));
        if (!r.network().isBlank()) {
            out.append("  net0: the template's NIC, on bridge ").append(r.network()).append('\n');
        }
        return out.toString();
    }
}
