package io.gpuforge.hypervisor.proxmox;

import io.gpuforge.domain.BackendException;
import io.gpuforge.domain.VmSpec;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The {@code POST /nodes/{node}/qemu} keys for a {@link VmSpec}: name, {@code cores} (one socket), memory in
 * MiB, the q35 machine, OVMF with an EFI disk when {@code uefi}, a VirtIO NIC on {@code vmbr0}, and a disk only
 * when {@code diskPath} is given: {@code STORAGE:GiB} makes a new empty disk, anything else (a volume such as
 * {@code local:import/noble.qcow2}, or an absolute path, which PVE lets only root@pam use) is imported with
 * {@code import-from}.
 *
 * <p>PVE ignores {@code network} (PVE has bridges, not libvirt networks: always {@code vmbr0}),
 * {@code cloudInitSeed} (PVE makes its own cloud-init drive from {@code ciuser}, {@code ipconfig0}…) and
 * {@code accelerated} (PVE always runs VMs with KVM). PCI functions in {@code hostDevices} are refused: PVE
 * takes passthrough only through resource mappings, so attach the GPU after the VM exists.
 */
final class PveVmSpec {

    private PveVmSpec() {
    }

    /** @param storage the node's storage for VM disks (the EFI disk, an imported or new disk) */
    static Map<String, String> params(VmSpec spec, String storage) throws BackendException {
        if (!spec.name().matches("[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?")) {
            throw new BackendException(BackendException.Kind.INVALID, "Proxmox VE VM names are letters, digits, '-' and"
                    + " '.' (a DNS name): '" + spec.name() + "' is not one");
        }
        if (!spec.hostDevices().isEmpty()) {
            throw new BackendException(BackendException.Kind.INVALID, "Proxmox VE passes PCI devices through resource"
                    + " mappings only: create the VM without them, then attach the GPU to it");
        }
        Map<String, String> p = new LinkedHashMap<>();
        p.put("name", spec.name());
        p.put("cores", String.valueOf(spec.vcpus()));
        p.put("sockets", "1");
        p.put("memory", String.valueOf(spec.memoryMiB()));
        p.put("machine", "q35");
        p.put("scsihw", "virtio-scsi-single");
        p.put("net0", "virtio,bridge=vmbr0");
        if (spec.uefi()) {
            p.put("bios", "ovmf");
            p.put("efidisk0", storage + ":1,efitype=4m,pre-enrolled-keys=0");
        }
        spec.diskPath().ifPresent(d -> {
            p.put("scsi0", d.matches("[A-Za-z][A-Za-z0-9_.-]*:\\d+") ? d + ",iothread=1"
                    : storage + ":0,import-from=" + d + ",iothread=1");
            p.put("boot", "order=scsi0");
        });
        return p;
    }
}
