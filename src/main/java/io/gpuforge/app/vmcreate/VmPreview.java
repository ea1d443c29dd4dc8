package io.gpuforge.app.vmcreate;

import io.gpuforge.app.vmcreate.VmProvisioning.Choices;
import io.gpuforge.app.vmcreate.VmProvisioning.Request;
import io.gpuforge.domain.BackendException;
import io.gpuforge.domain.vm.CloudInit;
import io.gpuforge.domain.vm.StorageInfo;
import io.gpuforge.domain.vm.VmRef;
import io.gpuforge.domain.vm.VmSpec;
import io.gpuforge.hypervisor.libvirt.DomainXmlBuilder;
import io.gpuforge.hypervisor.proxmox.PveVmSpec;
import java.util.Map;
import java.util.Optional;

/** {@link VmProvisioning#preview}: what will be sent, as the summary and {@code --dry-run} show it. Pure. */
final class VmPreview {

    private VmPreview() {
    }

    static String preview(Request r, Choices c) {
        String out = preview(r);
        Optional<String> userData = r.cloneOf().isPresent() ? Optional.empty()
                : VmProvisioning.spec(r).options().cloudInit().flatMap(CloudInit::userData);
        if (!r.target().proxmox() || userData.isEmpty()) {
            return out;
        }
        return out + c.noSnippet().map(why -> afterFirstBoot(r, why)).orElseGet(() -> asSnippet(r, c));
    }

    /** The snippet way: where it goes, root-only, when it is removed, and whether the storage is shared. */
    private static String asSnippet(Request r, Choices c) {
        Optional<StorageInfo> st = CloudInitSnippets.storage(c.storages());
        String name = st.map(StorageInfo::name).orElse("?");
        VmRef vm = new VmRef(r.target().node(), "<vmid>");
        return "Then the template's user-data as a snippet, written root-only (0600) over the node's SSH host link: "
                + name + ":snippets/" + CloudInitSnippets.fileName(vm, r.name()) + " (with "
                + CloudInitSnippets.metaFileName(vm, r.name()) + ", its instance-id); removed once the first boot"
                + " reported done, and with the VM\n"
                + st.flatMap(CloudInitSnippets::sharedByType).map(why -> "Note: " + why + "\n").orElse("")
                + "PUT /nodes/" + r.target().node() + "/qemu/<vmid>/config cicustom=user=" + name + ":snippets/…,meta="
                + name + ":snippets/…\n";
    }

    /** The calls that hand the user-data to the guest's cloud-init over the guest agent after the first boot. */
    private static String afterFirstBoot(Request r, String why) {
        String agent = "POST /nodes/" + r.target().node() + "/qemu/<vmid>/agent/";
        StringBuilder out = new StringBuilder("The template's user-data cannot go to the node as a snippet: ")
                .append(why).append(". The VM gets Proxmox VE's own cloud-init fields (ciuser, sshkeys, ipconfig0) for"
                        + " its first boot; then GPUForge hands the user-data to the guest's cloud-init over the QEMU"
                        + " guest agent")
                .append(r.start() ? ":\n" : ", once it starts the VM and is asked to (\"Run the template's setup\","
                        + " gpuforge vm provision):\n");
        out.append(agent).append("exec command=true   (until the agent answers, up to ")
                .append(FirstBootProvisioning.AGENT_WAIT.toMinutes()).append(" min)\n");
        out.append(agent).append("exec command=mkdir -p -m 0700 ").append(FirstBootProvisioning.USER_DATA_DIR)
                .append('\n');
        out.append(agent).append("file-write file=").append(FirstBootProvisioning.USER_DATA_FILE).append('\n');
        String whole = VmUserData.of(r);
        for (String m : FirstBootProvisioning.modulesFor(whole)) {
            out.append(agent).append("exec command=").append(String.join(" ", FirstBootProvisioning.command(m)))
                    .append('\n');
        }
        return out.toString();
    }

    static String preview(Request r) {
        VmSpec spec = VmProvisioning.spec(r);
        StringBuilder out = new StringBuilder();
        if (r.cloneOf().isPresent()) {
            out.append(VmClones.preview(r));
            r.gpu().ifPresent(g -> out.append("PCI mapping + PUT /nodes/").append(r.target().node())
                    .append("/qemu/<newid>/config hostpci0=mapping=").append(g.mapping().orElse("<new mapping>"))
                    .append(",pcie=1\n"));
        } else if (r.target().proxmox()) {
            r.template().image().ifPresent(i -> out.append("POST /nodes/").append(r.target().node())
                    .append("/storage/<import storage>/download-url content=import url=").append(i.url())
                    .append(" filename=").append(i.fileName()).append("   (unless the image is there)\n"));
            out.append("GET /cluster/nextid\nPOST /nodes/").append(r.target().node()).append("/qemu\n");
            try {
                Map<String, String> p = PveVmSpec.shown(PveVmSpec.params(spec, r.storage(), r.template().image()
                        .map(i -> "<import storage>:import/" + i.fileName())));
                p.forEach((k, v) -> out.append("  ").append(k).append(": ").append(v).append('\n'));
            } catch (BackendException e) {
                out.append("  (refused: ").append(e.getMessage()).append(")\n");
            }
            if (r.template().image().isPresent()) {
                out.append("PUT /nodes/").append(r.target().node()).append("/qemu/<vmid>/resize disk=scsi0 size=")
                        .append(r.diskGiB()).append("G\n");
            }
            r.gpu().ifPresent(g -> out.append("PCI mapping + PUT /nodes/").append(r.target().node())
                    .append("/qemu/<vmid>/config hostpci0=mapping=").append(g.mapping().orElse("<new mapping>"))
                    .append(",pcie=1\n"));
        } else {
            out.append("volume ").append(r.name()).append("-disk0.qcow2 in pool ").append(r.storage()).append(", ")
                    .append(r.diskGiB()).append(" GiB").append(r.template().image().map(i -> ", backed by "
                    + i.fileName()).orElse("")).append('\n');
            if (spec.options().cloudInit().isPresent()) {
                out.append("volume ").append(r.name()).append("-seed.iso (NoCloud, label cidata: user-data, meta-data,"
                        + " network-config)\n");
            }
            String xml = DomainXmlBuilder.build(spec.withDiskPath(Optional.of("<pool " + r.storage() + ">/" + r.name()
                    + "-disk0.qcow2")).withCloudInitSeed(spec.options().cloudInit().map(c -> "<pool " + r.storage()
                    + ">/" + r.name() + "-seed.iso")));
            out.append(xml);
            r.gpu().ifPresent(g -> out.append("then <hostdev> for ").append(g.address()).append(" (managed)\n"));
        }
        return out.toString();
    }
}
