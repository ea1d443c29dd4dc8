package io.gpuforge.lab;

import java.io.IOException;
import java.util.List;

/**
 * Faults the lab arms on a guest (src/test/lab/guest/lab-exec, the update-initramfs stand-ins): all live under the
 * guest's {@code /run/lab-fault}, a tmpfs, so a reboot disarms them.
 */
final class Faults {

    /** One fault: what it does, and how it is armed. */
    record Fault(String name, List<String> cutWhen, boolean failUpdateInitramfs) {
        @Override
        public String toString() {
            return name;
        }
    }

    /** The SSH connection is cut at the first remote step whose script contains every one of these strings. */
    static Fault cut(String name, String... when) {
        return new Fault(name, List.of(when), false);
    }

    /** update-initramfs exits 1. */
    static Fault updateInitramfsFails() {
        return new Fault("update-initramfs exits 1", List.of(), true);
    }

    /**
     * What only the script GPUForge runs to follow its detached commit holds: a cut there comes while the commit
     * (renames, update-grub, update-initramfs) runs on the host by itself.
     */
    static final String FOLLOWING_THE_COMMIT = "@@@ END";

    /** The connection cut while the commit runs, and update-initramfs exits 1 in it: the commit restores by itself. */
    static Fault cutAndUpdateInitramfsFails(String name) {
        return new Fault(name, List.of(FOLLOWING_THE_COMMIT), true);
    }

    private final LabMachine machine;

    Faults(LabMachine machine) {
        this.machine = machine;
    }

    void arm(Fault f) throws IOException {
        machine.sh("rm -rf /run/lab-fault; mkdir -p /run/lab-fault");
        if (!f.cutWhen().isEmpty()) {
            StringBuilder s = new StringBuilder("cat > /run/lab-fault/cut-when <<'LAB'\n");
            f.cutWhen().forEach(w -> s.append(w).append('\n'));
            machine.sh(s.append("LAB").toString());
        }
        if (f.failUpdateInitramfs()) {
            machine.sh("touch /run/lab-fault/fail-update-initramfs");
        }
    }

    /** Disarms; true when an armed connection cut actually fired. */
    boolean disarm() throws IOException {
        boolean fired = machine.run("[ -e /run/lab-fault/cut-done ]").exitCode() == 0;
        machine.sh("rm -rf /run/lab-fault");
        return fired;
    }
}
