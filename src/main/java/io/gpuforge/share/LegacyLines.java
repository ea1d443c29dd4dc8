package io.gpuforge.share;

import io.gpuforge.domain.share.ContainerDevice;
import io.gpuforge.domain.share.RawLxc;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Containers given GPU devices the old way: {@code lxc.cgroup2.devices.allow} (or cgroup v1's
 * {@code lxc.cgroup.devices.allow}) rules by device major and minor, and {@code lxc.mount.entry} bind mounts of
 * {@code /dev} paths. Reads them from the API's {@code lxc} pairs or from a configuration file as people post it,
 * and says which device nodes they reach.
 */
public final class LegacyLines {

    /**
     * A bind mount ({@code /dev/dri dev/dri none bind,optional,create=dir}): group 1 the host's path, group 2 where
     * it lands in the container (relative to its root, or absolute).
     */
    static final Pattern MOUNT = Pattern.compile("^(/\\S+)\\s+(\\S+)\\s+none\\s+bind");
    /** A cgroup rule for character devices ({@code c 226:* rwm}); group 1 the major. */
    static final Pattern CGROUP = Pattern.compile("^c\\s+(\\d+|\\*):(\\d+|\\*)\\s+[rwm]+$");
    private static final Pattern LINE = Pattern.compile("^\\s*(lxc\\.[a-z0-9_.]+|dev\\d+)\\s*[:=]\\s*(.*?)\\s*$");
    /** GPU device nodes and the directories that hold them. */
    private static final Pattern GPU_PATH = Pattern.compile("^/dev/(dri(/.*)?|nvidia.*|kfd)$");

    private LegacyLines() {
    }

    /** Whether a raw line is one of the old way's device lines. */
    public static boolean isDeviceLine(RawLxc l) {
        return l.key().matches("lxc\\.cgroup2?\\.devices\\.allow") || devicePath(l).isPresent();
    }

    /**
     * The device path a mount entry gives the container, read by where it lands ({@code dev/nvidia0} is
     * {@code /dev/nvidia0} whatever host path it binds: {@code /some/dir/nvidia0} too), else by its host path under
     * {@code /dev}; empty for any other line.
     */
    public static Optional<String> devicePath(RawLxc l) {
        if (!l.key().equals("lxc.mount.entry")) {
            return Optional.empty();
        }
        Matcher m = MOUNT.matcher(l.value().strip());
        if (!m.find()) {
            return Optional.empty();
        }
        String target = "/" + m.group(2).replaceFirst("^/+", "").replaceFirst("/+$", "");
        if (target.startsWith("/dev/")) {
            return Optional.of(target);
        }
        return m.group(1).startsWith("/dev/") ? Optional.of(m.group(1).replaceFirst("/+$", "")) : Optional.empty();
    }

    /** The GPU paths the old way's mount entries give the container ({@code /dev/dri}, {@code /dev/nvidia0}…). */
    public static List<String> gpuPaths(List<RawLxc> lxc) {
        Set<String> out = new LinkedHashSet<>();
        for (RawLxc l : lxc) {
            devicePath(l).filter(p -> GPU_PATH.matcher(p).matches()).ifPresent(out::add);
        }
        return new ArrayList<>(out);
    }

    /** The device majors the cgroup rules allow ({@code 226}, {@code 195}, {@code *}). */
    public static List<String> majors(List<RawLxc> lxc) {
        Set<String> out = new LinkedHashSet<>();
        for (RawLxc l : lxc) {
            if (l.key().matches("lxc\\.cgroup2?\\.devices\\.allow")) {
                Matcher m = CGROUP.matcher(l.value().strip());
                if (m.matches()) {
                    out.add(m.group(1));
                }
            }
        }
        return new ArrayList<>(out);
    }

    /** The raw lines and {@code devN} entries of a configuration file's text (its first section: not snapshots). */
    public static Parsed parse(String text) {
        List<RawLxc> lxc = new ArrayList<>();
        Map<Integer, ContainerDevice> devices = new TreeMap<>();
        for (String line : text.split("\n")) {
            if (line.startsWith("[")) {
                break;
            }
            Matcher m = LINE.matcher(line);
            if (!m.matches()) {
                continue;
            }
            if (m.group(1).startsWith("dev")) {
                int n = Integer.parseInt(m.group(1).substring(3));
                ContainerDevice.parse(m.group(2)).ifPresent(d -> devices.put(n, d));
            } else {
                lxc.add(new RawLxc(m.group(1), m.group(2)));
            }
        }
        return new Parsed(lxc, devices);
    }

    /** A configuration line as a raw {@code lxc.*} line; empty for any other line. */
    static Optional<RawLxc> raw(String line) {
        Matcher m = LINE.matcher(line);
        return m.matches() && m.group(1).startsWith("lxc.") ? Optional.of(new RawLxc(m.group(1), m.group(2)))
                : Optional.empty();
    }

    /** What a configuration file holds for devices. */
    public record Parsed(List<RawLxc> lxc, Map<Integer, ContainerDevice> devices) {
    }
}
