package io.gpuforge.hypervisor.proxmox;

import io.gpuforge.domain.BackendException;
import io.gpuforge.domain.vm.CloudInit;
import io.gpuforge.domain.vm.VmField;
import io.gpuforge.domain.vm.VmOptions;
import io.gpuforge.domain.vm.VmSpec;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The {@code POST /nodes/{node}/qemu} keys for a {@link VmSpec}, with GPUForge's defaults where they differ from the
 * API's: one socket of {@code cores}, memory in MiB, {@code machine: q35}, {@code scsihw: virtio-scsi-single},
 * {@code cpu: host} (or the spec's model), OVMF with an EFI disk when {@code uefi} (Windows with Microsoft's
 * keys enrolled), a TPM 2.0 state disk, a VirtIO NIC on the spec's bridge ({@code vmbr0} for a libvirt name),
 * the guest agent, ISOs as IDE CD-ROMs.
 *
 * <p>The system disk: a cloud image already on the node ({@code importVolume}) is imported with
 * {@code import-from}; else {@code diskPath} as before ({@code STORAGE:GiB} a new empty disk, any other volume
 * imported); else a new empty disk of {@code diskGiB}. Cloud-init goes to PVE's own drive ({@code ide2:
 * STORAGE:cloudinit}): {@code ciuser}, {@code cipassword}, {@code sshkeys} (URL-encoded once more, as PVE wants),
 * {@code ipconfig0}, {@code nameserver}, {@code searchdomain}; the template's user-data needs a snippet
 * ({@code cicustom}), which the API cannot upload: see the app's provisioning.
 *
 * <p>PCI functions in {@code hostDevices} are refused: PVE takes passthrough only through resource mappings, so
 * attach the GPU after the VM exists. {@code accelerated} is ignored (PVE always runs VMs with KVM).
 */
public final class PveVmSpec {

    /** PVE's keys and the wizard's field each belongs to (for a 400 with {@code errors}). */
    private static final Map<String, VmField> FIELDS = Map.ofEntries(Map.entry("name", VmField.NAME),
            Map.entry("vmid", VmField.VMID), Map.entry("cores", VmField.CORES), Map.entry("sockets", VmField.CORES),
            Map.entry("memory", VmField.MEMORY), Map.entry("cpu", VmField.CPU_TYPE), Map.entry("scsi0", VmField.DISK),
            Map.entry("efidisk0", VmField.STORAGE), Map.entry("tpmstate0", VmField.STORAGE),
            Map.entry("net0", VmField.NETWORK), Map.entry("ciuser", VmField.CI_USER),
            Map.entry("cipassword", VmField.CI_PASSWORD), Map.entry("sshkeys", VmField.SSH_KEYS),
            Map.entry("ipconfig0", VmField.IP), Map.entry("nameserver", VmField.DNS),
            Map.entry("searchdomain", VmField.DNS), Map.entry("storage", VmField.STORAGE),
            Map.entry("size", VmField.DISK));

    private PveVmSpec() {
    }

    /** The field a PVE parameter belongs to. */
    public static VmField field(String pveKey) {
        VmField f = FIELDS.get(pveKey);
        if (f == null && pveKey.matches("ide\\d")) {
            return VmField.IMAGE;
        }
        return f == null ? VmField.OTHER : f;
    }

    /** With the spec's own disk ({@code diskPath}) or none: what {@code createVm} sent before templates. */
    static Map<String, String> params(VmSpec spec, String storage) throws BackendException {
        return params(spec, storage, Optional.empty());
    }

    /**
     * @param storage      the node's storage for VM disks (the EFI and TPM disks, the system disk, cloud-init)
     * @param importVolume a cloud image on the node to import as the system disk ({@code local:import/noble.qcow2})
     */
    public static Map<String, String> params(VmSpec spec, String storage, Optional<String> importVolume)
            throws BackendException {
        if (!spec.name().matches("[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?")) {
            throw new BackendException(BackendException.Kind.INVALID, "Proxmox VE VM names are letters, digits, '-' and"
                    + " '.' (a DNS name): '" + spec.name() + "' is not one");
        }
        if (!spec.hostDevices().isEmpty()) {
            throw new BackendException(BackendException.Kind.INVALID, "Proxmox VE passes PCI devices through resource"
                    + " mappings only: create the VM without them, then attach the GPU to it");
        }
        VmOptions o = spec.options();
        boolean windows = o.osType().startsWith("w");
        Map<String, String> p = new LinkedHashMap<>();
        p.put("name", spec.name());
        p.put("cores", String.valueOf(spec.vcpus()));
        p.put("sockets", "1");
        p.put("memory", String.valueOf(spec.memoryMiB()));
        p.put("cpu", o.cpuType());
        p.put("machine", "q35");
        p.put("scsihw", "virtio-scsi-single");
        p.put("ostype", o.osType());
        p.put("net0", "virtio,bridge=" + bridge(spec.network()));
        if (o.agent()) {
            p.put("agent", "enabled=1");
        }
        if (spec.uefi()) {
            p.put("bios", "ovmf");
            p.put("efidisk0", storage + ":1,efitype=4m,pre-enrolled-keys=" + (windows ? "1" : "0"));
        }
        if (o.tpm()) {
            p.put("tpmstate0", storage + ":1,version=v2.0");
        }
        Optional<String> disk = Optional.empty();
        if (importVolume.isPresent()) {
            disk = Optional.of(storage + ":0,import-from=" + importVolume.get() + ",iothread=1,discard=on");
        } else if (spec.diskPath().isPresent()) {
            String d = spec.diskPath().get();
            disk = Optional.of(d.matches("[A-Za-z][A-Za-z0-9_.-]*:\\d+") ? d + ",iothread=1"
                    : storage + ":0,import-from=" + d + ",iothread=1");
        } else if (o.diskGiB().isPresent()) {
            disk = Optional.of(storage + ":" + o.diskGiB().getAsInt() + ",iothread=1,discard=on");
        }
        disk.ifPresent(d -> p.put("scsi0", d));
        List<String> isos = o.isos();
        for (int i = 0; i < isos.size() && i < 2; i++) {
            p.put("ide" + i, isos.get(i) + ",media=cdrom");
        }
        StringBuilder boot = new StringBuilder();
        if (disk.isPresent()) {
            boot.append("scsi0");
        }
        if (!isos.isEmpty()) {
            boot.append(boot.length() > 0 ? ";" : "").append("ide0");
        }
        if (boot.length() > 0) {
            p.put("boot", "order=" + boot);
        }
        o.cloudInit().ifPresent(ci -> cloudInit(p, ci, storage));
        return p;
    }

    /** The cloud-init keys of {@code ci} into {@code p}, its drive on {@code storage} (also for a clone's config). */
    public static void cloudInit(Map<String, String> p, CloudInit ci, String storage) {
        p.put("ide2", storage + ":cloudinit");
        p.put("ciuser", ci.user());
        ci.passwordHash().ifPresent(pw -> p.put("cipassword", pw));
        if (!ci.sshKeys().isEmpty()) {
            p.put("sshkeys", PveValues.sshKeys(String.join("\n", ci.sshKeys())));
        }
        if (ci.ip() instanceof CloudInit.Static) {
            CloudInit.Static s = (CloudInit.Static) ci.ip();
            p.put("ipconfig0", "ip=" + s.cidr() + s.gateway().map(g -> ",gw=" + g).orElse(""));
        } else {
            p.put("ipconfig0", "ip=dhcp");
        }
        if (!ci.dns().isEmpty()) {
            p.put("nameserver", String.join(" ", ci.dns()));
        }
        ci.searchDomain().ifPresent(d -> p.put("searchdomain", d));
    }

    /** A PVE bridge name as given; a libvirt network name ({@code default}, user-mode) means the first bridge. */
    static String bridge(String network) {
        String n = network.toLowerCase(Locale.ROOT);
        return n.equals("default") || network.equals(VmSpec.USER_NETWORK) || network.isBlank() ? "vmbr0" : network;
    }

    /** The params as the summary shows them: the password hidden. */
    public static Map<String, String> shown(Map<String, String> params) {
        Map<String, String> out = new LinkedHashMap<>(params);
        out.computeIfPresent("cipassword", (k, v) -> "********");
        return out;
    }
}
