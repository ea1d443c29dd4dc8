package io.gpuforge.passthrough;

import java.util.ArrayList;
import java.util.List;

/** Adds and removes kernel arguments keeping the others in order and never adding one twice. */
final class KernelCmdline {

    private KernelCmdline() {
    }

    static String edit(String cmdline, List<String> add, List<String> remove) {
        List<String> args = new ArrayList<>();
        for (String a : cmdline.strip().split("\\s+")) {
            if (!a.isEmpty() && !remove.contains(a)) {
                args.add(a);
            }
        }
        for (String a : add) {
            String key = a.contains("=") ? a.substring(0, a.indexOf('=') + 1) : a;
            boolean present = args.stream().anyMatch(x -> x.equals(a));
            if (!present) {
                // a different value for the same key (iommu=soft) is replaced, not duplicated
                args.removeIf(x -> a.contains("=") && x.startsWith(key) && !key.equals("video=")
                        && !key.equals("initcall_blacklist="));
                args.add(a);
            }
        }
        return String.join(" ", args);
    }
}
