package io.gpuforge.lab;

import java.io.IOException;
import java.util.List;

/**
 * Faults the lab arms on a Debian guest (src/test/lab/guest/lab-exec, update-initramfs): all live under the
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
