package io.gpuforge.passthrough;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Compares kernel releases like {@code 6.8.12-4-pve} by major.minor. */
final class KernelVersion {

    private static final Pattern V = Pattern.compile("^(\\d+)\\.(\\d+)");

    private KernelVersion() {
    }

    /** False when the release cannot be read. */
    static boolean atLeast(String release, int major, int minor) {
        Matcher m = V.matcher(release == null ? "" : release.strip());
        if (!m.find()) {
            return false;
        }
        int a = Integer.parseInt(m.group(1));
        int b = Integer.parseInt(m.group(2));
        return a > major || (a == major && b >= minor);
    }
}
