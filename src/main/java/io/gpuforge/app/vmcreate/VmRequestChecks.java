package io.gpuforge.app.vmcreate;

import io.gpuforge.domain.message.Message;
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
            out.add(new Problem(VmField.NAME, true, Message.of("problem.name.invalid")));
        } else if (c.vms().stream().anyMatch(v -> v.name().equalsIgnoreCase(r.name()))) {
            out.add(new Problem(VmField.NAME, !r.target().proxmox(), Message.of(r.target().proxmox()
                    ? "problem.name.taken.proxmox" : "problem.name.taken", r.name(), r.target().node())));
        }
        if (r.cores() < 1) {
            out.add(new Problem(VmField.CORES, true, Message.of("problem.cores.none")));
        } else if (c.status().cpus() > 0 && r.cores() > c.status().cpus()) {
            out.add(new Problem(VmField.CORES, true, Message.of("problem.cores.many", r.cores(),
                    c.status().cpus(), r.target().node())));
        }
        long asked = (long) r.memoryMiB() << 20;
        long free = c.freeMemoryBytes();
        long total = c.status().memoryTotalBytes().orElse(0);
        if (r.memoryMiB() < 64) {
            out.add(new Problem(VmField.MEMORY, true, Message.of("problem.memory.little")));
        } else if (total > 0 && asked > free) {
            out.add(new Problem(VmField.MEMORY, true, Message.of("problem.memory.short", r.target().node(),
                    gib(asked), gib(free), gib(total))));
        } else if (total > 0) {
            long promised = c.vms().stream().filter(v -> !v.template()).mapToLong(VmInfo::memoryBytes).sum() + asked;
            if (promised > total) {
                out.add(new Problem(VmField.MEMORY, false, Message.of("problem.memory.over",
                        r.target().node(), gib(promised), gib(total))));
            }
        }
        Optional<StorageInfo> st = c.storages().stream().filter(s -> s.name().equals(r.storage())).findFirst();
        if (st.isEmpty() || !st.get().holds(StorageInfo.IMAGES)) {
            out.add(new Problem(VmField.STORAGE, true, Message.of("problem.storage.none")));
        } else if (((long) r.diskGiB() << 30) > st.get().availableBytes()) {
            out.add(new Problem(VmField.DISK, true, Message.of("problem.disk.short", r.storage(), r.diskGiB(),
                    gib(st.get().availableBytes()))));
        }
        if (r.diskGiB() < 1) {
            out.add(new Problem(VmField.DISK, true, Message.of("problem.disk.little")));
        }
        if (c.networks().stream().noneMatch(n -> n.name().equals(r.network()))) {
            out.add(new Problem(VmField.NETWORK, true, Message.of("problem.network", r.target().node())));
        }
        r.cloudInit().ifPresent(ci -> {
            if (ci.passwordHash().isEmpty() && ci.sshKeys().isEmpty()) {
                out.add(new Problem(VmField.SSH_KEYS, true, Message.of("problem.login")));
            }
            for (String k : ci.sshKeys()) {
                if (!k.matches("(ssh-(ed25519|rsa|dss)|ecdsa-sha2-nistp(256|384|521)|sk-\\S+) [A-Za-z0-9+/=]+( .*)?")) {
                    out.add(new Problem(VmField.SSH_KEYS, true, Message.of("problem.sshKey", shorten(k))));
                }
            }
            if (ci.ip() instanceof CloudInit.Static && !((CloudInit.Static) ci.ip()).cidr()
                    .matches("\\d{1,3}(\\.\\d{1,3}){3}/\\d{1,2}")) {
                out.add(new Problem(VmField.IP, true, Message.of("problem.ip")));
            }
        });
        for (VmTemplate.Variable v : r.template().variables()) {
            if (r.variables().getOrDefault(v.name(), "").isBlank()) {
                out.add(new Problem(VmField.OTHER, true, Message.of("problem.variable", v.label())));
            }
        }
        if (r.cloneOf().isEmpty()) {
            userData(r, out);
        } else {
            VmClones.check(r, c, out);
        }
        if (r.gpu().isEmpty() && r.template().gpus() > 0) {
            int n = r.template().gpus();
            out.add(new Problem(VmField.GPU, false, Message.of("problem.gpu", n)));
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
            out.add(new Problem(VmField.OTHER, true, Message.of("problem.raw", String.valueOf(e.getMessage()))));
            return;
        }
        if (r.template().variables().stream().anyMatch(v -> r.variables().getOrDefault(v.name(), "").isBlank())) {
            return; // said above; the document cannot be rendered yet
        }
        try {
            CloudConfigYaml.parse(VmUserData.of(r));
        } catch (CloudConfigYaml.Invalid e) {
            out.add(new Problem(VmField.OTHER, true, Message.of("problem.userData",
                    VmSecrets.of(r).apply(String.valueOf(e.getMessage())))));
        } catch (IllegalArgumentException e) {
            out.add(new Problem(VmField.OTHER, true, Message.of("problem.raw",
                    VmSecrets.of(r).apply(String.valueOf(e.getMessage())))));
        }
    }

    private static String gib(long bytes) {
        return String.format(java.util.Locale.ROOT, "%.1f GiB", bytes / (double) (1L << 30));
    }

    private static String shorten(String s) {
        return s.length() > 40 ? s.substring(0, 37) + "..." : s;
    }
}
