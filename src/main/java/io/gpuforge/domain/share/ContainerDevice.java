package io.gpuforge.domain.share;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * One {@code devN} entry of a Proxmox container ({@code devN: [path=]PATH[,deny-write=1][,gid=N][,mode=0NNN][,uid=N]},
 * PVE 8.1+): a host device node the container gets, with its owner and mode inside.
 */
public record ContainerDevice(String path, OptionalInt gid, OptionalInt uid, Optional<String> mode, boolean denyWrite) {

    public ContainerDevice {
        Objects.requireNonNull(path);
        Objects.requireNonNull(gid);
        Objects.requireNonNull(uid);
        Objects.requireNonNull(mode);
        if (!path.startsWith("/dev/") || path.contains(",") || path.contains("=") || path.contains("..")) {
            throw new IllegalArgumentException("not a device path: " + path);
        }
        mode.ifPresent(m -> {
            if (!m.matches("0[0-7]{3}")) {
                throw new IllegalArgumentException("not an octal mode: " + m);
            }
        });
    }

    public static ContainerDevice of(String path) {
        return new ContainerDevice(path, OptionalInt.empty(), OptionalInt.empty(), Optional.empty(), false);
    }

    public ContainerDevice withGid(int g) {
        return new ContainerDevice(path, OptionalInt.of(g), uid, mode, denyWrite);
    }

    /** The value as Proxmox writes it ({@code /dev/dri/renderD128,gid=104}). */
    public String value() {
        List<String> parts = new ArrayList<>(List.of(path));
        if (denyWrite) {
            parts.add("deny-write=1");
        }
        gid.ifPresent(g -> parts.add("gid=" + g));
        mode.ifPresent(m -> parts.add("mode=" + m));
        uid.ifPresent(u -> parts.add("uid=" + u));
        return String.join(",", parts);
    }

    /** Reads a {@code devN} value; empty when it is not one. */
    public static Optional<ContainerDevice> parse(String value) {
        String path = null;
        OptionalInt gid = OptionalInt.empty();
        OptionalInt uid = OptionalInt.empty();
        Optional<String> mode = Optional.empty();
        boolean deny = false;
        try {
            for (String part : value.strip().split(",")) {
                int eq = part.indexOf('=');
                String k = eq < 0 ? "path" : part.substring(0, eq).strip();
                String v = eq < 0 ? part.strip() : part.substring(eq + 1).strip();
                switch (k) {
                    case "path" -> path = v;
                    case "gid" -> gid = OptionalInt.of(Integer.parseInt(v));
                    case "uid" -> uid = OptionalInt.of(Integer.parseInt(v));
                    case "mode" -> mode = Optional.of(v);
                    case "deny-write" -> deny = v.equals("1");
                    default -> {
                        return Optional.empty();
                    }
                }
            }
            return path == null ? Optional.empty() : Optional.of(new ContainerDevice(path, gid, uid, mode, deny));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }
}
