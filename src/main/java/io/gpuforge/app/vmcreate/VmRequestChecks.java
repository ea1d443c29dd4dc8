package io.gpuforge.app.vmcreate;

import io.gpuforge.app.vmcreate.VmProvisioning.Choices;
import io.gpuforge.app.vmcreate.VmProvisioning.Problem;
import io.gpuforge.app.vmcreate.VmProvisioning.Request;
import io.gpuforge.domain.vm.CloudInit;
import io.gpuforge.domain.vm.StorageInfo;
import io.gpuforge.domain.vm.VmField;
import io.gpuforge.domain.vm.VmInfo;
import io.gpuforge.domain.vm.VmTemplate;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** {@link VmProvisioning#check}: a request's problems against what the target offers. Pure. */
final class VmRequestChecks {

    private VmRequestChecks() {
    }

    static List<Problem> check(Request r, Choices c) {
        List<Problem> out = new ArrayList<>();
        String dns = "[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?";
        if (!r.name().matches(dns) || r.name().length() > 63) {
            out.add(new Problem(VmField.NAME, true, "A VM name is letters, digits, '-' and '.' (at most 63), starting"
                    + " and ending with a letter or digit"));
        } else if (c.vms().stream().anyMatch(v -> v.name().equalsIgnoreCase(r.name()))) {
            out.add(new Problem(VmField.NAME, !r.target().proxmox(), "A VM named " + r.name() + " exists on "
                    + r.target().node() + " already" + (r.target().proxmox() ? " (Proxmox VE allows it, but it confuses)"
                    : ": pick another name")));
        }
        if (r.cores() < 1) {
            out.add(new Problem(VmField.CORES, true, "A VM needs at least one core"));
        } else if (c.status().cpus() > 0 && r.cores() > c.status().cpus()) {
            out.add(new Problem(VmField.CORES, true, r.cores() + " cores is more than the " + c.status().cpus()
                    + " CPUs of " + r.target().node()));
        }
        long asked = (long) r.memoryMiB() << 20;
        long free = c.freeMemoryBytes();
        long total = c.status().memoryTotalBytes().orElse(0);
        if (r.memoryMiB() < 64) {
            out.add(new Problem(VmField.MEMORY, true, "A VM needs at least 64 MiB"));
        } else if (total > 0 && asked > free) {
            out.add(new Problem(VmField.MEMORY, true, "Not enough memory on " + r.target().node() + ": "
                    + gib(asked) + " asked, " + gib(free) + " free of " + gib(total)));
        } else if (total > 0) {
            long promised = c.vms().stream().filter(v -> !v.template()).mapToLong(VmInfo::memoryBytes).sum() + asked;
            if (promised > total) {
                out.add(new Problem(VmField.MEMORY, false, "Over-committed: the VMs of " + r.target().node()
                        + " would be given " + gib(promised) + " of " + gib(total)));
            }
        }
        Optional<StorageInfo> st = c.storages().stream().filter(s -> s.name().equals(r.storage())).findFirst();
        if (st.isEmpty() || !st.get().holds(StorageInfo.IMAGES)) {
            out.add(new Problem(VmField.STORAGE, true, "Pick a storage for the disk (one that holds VM disks)"));
        } else if (((long) r.diskGiB() << 30) > st.get().availableBytes()) {
            out.add(new Problem(VmField.DISK, true, "Not enough space on " + r.storage() + ": " + r.diskGiB() + " GiB"
                    + " asked, " + gib(st.get().availableBytes()) + " free"));
        }
        if (r.diskGiB() < 1) {
            out.add(new Problem(VmField.DISK, true, "A disk is at least 1 GiB"));
        }
        if (c.networks().stream().noneMatch(n -> n.name().equals(r.network()))) {
            out.add(new Problem(VmField.NETWORK, true, "Pick a network of " + r.target().node()));
        }
        r.cloudInit().ifPresent(ci -> {
            if (ci.passwordHash().isEmpty() && ci.sshKeys().isEmpty()) {
                out.add(new Problem(VmField.SSH_KEYS, true, "Give a password or an SSH public key: else nobody can log in"));
            }
            for (String k : ci.sshKeys()) {
                if (!k.matches("(ssh-(ed25519|rsa|dss)|ecdsa-sha2-nistp(256|384|521)|sk-\\S+) [A-Za-z0-9+/=]+( .*)?")) {
                    out.add(new Problem(VmField.SSH_KEYS, true, "Not an OpenSSH public key: '" + shorten(k) + "'"));
                }
            }
            if (ci.ip() instanceof CloudInit.Static && !((CloudInit.Static) ci.ip()).cidr()
                    .matches("\\d{1,3}(\\.\\d{1,3}){3}/\\d{1,2}")) {
                out.add(new Problem(VmField.IP, true, "A static address is written 192.0.2.10/24"));
            }
        });
        for (VmTemplate.Variable v : r.template().variables()) {
            if (r.variables().getOrDefault(v.name(), "").isBlank()) {
                out.add(new Problem(VmField.OTHER, true, v.label() + " is needed by the template"));
            }
        }
        if (r.cloneOf().isEmpty()) {
            userData(r, out);
        } else {
            VmClones.check(r, c, out);
        }
        if (r.gpu().isEmpty() && r.template().gpus() > 0) {
            int n = r.template().gpus();
            out.add(new Problem(VmField.GPU, false, "The template expects " + n + (n == 1 ? " GPU" : " GPUs")
                    + "; the VM gets none"));
        }
        return out;
    }

    /**
     * The template's user-data as cloud-init will read it: a template saved before GPUForge read the keys from the
     * YAML may still set one of GPUForge's (refused, naming it), and the whole document GPUForge writes must parse
     * with no key twice.
     */
    private static void userData(Request r, List<Problem> out) {
        if (r.template().userData().isEmpty() || r.cloudInit().isEmpty()) {
            return;
        }
        try {
            CloudConfigYaml.checkTemplate(r.template());
        } catch (CloudConfigYaml.Invalid e) {
            out.add(new Problem(VmField.OTHER, true, e.getMessage()));
            return;
        }
        if (r.template().variables().stream().anyMatch(v -> r.variables().getOrDefault(v.name(), "").isBlank())) {
            return; // said above; the document cannot be rendered yet
        }
        try {
            CloudConfigYaml.parse(VmUserData.of(r));
        } catch (CloudConfigYaml.Invalid e) {
            out.add(new Problem(VmField.OTHER, true, VmSecrets.of(r).apply("The user-data GPUForge would write is "
                    + e.getMessage())));
        } catch (IllegalArgumentException e) {
            out.add(new Problem(VmField.OTHER, true, VmSecrets.of(r).apply(e.getMessage())));
        }
    }

    private static String gib(long bytes) {
        return String.format("%.1f GiB", bytes / (double) (1L << 30));
    }

    private static String shorten(String s) {
        return s.length() > 40 ? s.substring(0, 37) + "..." : s;
    }
}
