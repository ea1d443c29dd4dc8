package io.gpuforge.app.diagnose;

import io.gpuforge.domain.BackendException;
import io.gpuforge.domain.connections.ConnectionInfo;
import io.gpuforge.domain.diagnose.VmFix;
import io.gpuforge.domain.vm.VmConfig;
import java.util.List;
import java.util.Optional;

/** The VM side of a fix on the VM's hypervisor: Proxmox VE keys, or libvirt's domain XML. */
final class VmFixes {

    private VmFixes() {
    }

    static VmFix of(ConnectionInfo.Kind kind, String cause, VmConfig c, List<io.gpuforge.domain.diagnose.FixPlan.VmEdit> advised)
            throws BackendException {
        if (kind == ConnectionInfo.Kind.LIBVIRT) {
            return DomainVmFixes.of(cause, c, advised.stream().filter(v -> v.hypervisor().equals("libvirt"))
                    .map(io.gpuforge.domain.diagnose.FixPlan.VmEdit::snippet).findFirst());
        }
        return PveVmFixes.of(cause, c);
    }

    /**
     * Whether {@code change} is in {@code now} as written: every key with its value, or (a document) the configuration
     * is still at {@code versionAfter}, the version written. No change holds trivially.
     */
    static boolean holds(Optional<io.gpuforge.domain.passthrough.ConfigChange> change, VmConfig now,
                         Optional<String> versionAfter) {
        return change.map(ch -> {
            if (ch instanceof io.gpuforge.domain.passthrough.ConfigChange.Settings s) {
                return s.keys().entrySet().stream().allMatch(e -> e.getValue().equals(
                        Optional.ofNullable(now.settings().get(e.getKey()))));
            }
            return versionAfter.map(now.version()::equals).orElse(false);
        }).orElse(true);
    }
}
