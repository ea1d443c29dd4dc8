package io.gpuforge.host.probe;

import io.gpuforge.host.ProbeStream;

import java.util.LinkedHashMap;
import java.util.Map;

/** The symbolic links of a probe stream ({@code ls -ld} lines): link path, sysroot prefix removed → target. */
public final class SysfsLinks {

    private SysfsLinks() {
    }

    static Map<String, String> read(ProbeStream s) {
        Map<String, String> out = new LinkedHashMap<>();
        String root = s.root.equals("/") ? "" : s.root;
        for (String line : s.links) {
            int arrow = line.indexOf(" -> ");
            if (arrow < 0) {
                continue;
            }
            String left = line.substring(0, arrow);
            int slash = left.indexOf(" /");
            if (slash < 0) {
                continue;
            }
            String path = left.substring(slash + 1);
            if (!root.isEmpty() && path.startsWith(root)) {
                path = path.substring(root.length());
            }
            out.put(path, line.substring(arrow + 4).strip());
        }
        return out;
    }

    /** The last name of a link target: {@code ../../bus/pci/drivers/nvidia} → {@code nvidia}. */
    static String base(String target) {
        String t = target.endsWith("/") ? target.substring(0, target.length() - 1) : target;
        return t.substring(t.lastIndexOf('/') + 1);
    }
}
