package io.gpuforge.host.apply;

import io.gpuforge.domain.passthrough.PassthroughPlan;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** The kernel arguments a plan adds: what verify looks for in /proc/cmdline after the reboot. */
final class AddedKernelArgs {

    private AddedKernelArgs() {
    }

    /** Each token the plan's boot files have after and did not have before, in order (GRUB's variables left out). */
    static List<String> of(PassthroughPlan plan) {
        Set<String> added = new LinkedHashSet<>();
        for (PassthroughPlan.FileEdit e : plan.edits()) {
            if (e.path().equals("/etc/default/grub") || e.path().equals("/etc/kernel/cmdline")
                    || JournalPolicy.GRUB_DROP_IN.matcher(e.path()).matches()) {
                Set<String> before = tokens(e.before().orElse(""));
                for (String t : tokens(e.after())) {
                    if (!before.contains(t) && !t.startsWith("GRUB_")) {
                        added.add(t);
                    }
                }
            }
        }
        return new ArrayList<>(added);
    }

    private static Set<String> tokens(String s) {
        Set<String> out = new LinkedHashSet<>();
        for (String t : s.replace('"', ' ').replace('\'', ' ').split("\\s+")) {
            String x = t.replaceFirst("^GRUB_CMDLINE_LINUX(_DEFAULT)?=", "").strip();
            if (!x.isEmpty()) {
                out.add(x);
            }
        }
        return out;
    }
}
