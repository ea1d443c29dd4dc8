package io.gpuforge.hypervisor.proxmox;

import java.time.Instant;
import java.util.Optional;

/**
 * A Proxmox task id: {@code UPID:node:pid:pstart:starttime:type:id:user@realm[!token]:} with pid, pstart
 * and starttime in hex. Parsed strictly: a malformed UPID is an error naming the part that is wrong.
 */
public record Upid(String node, long pid, long pstart, Instant started, String type, Optional<String> id,
                   String user, String raw) {

    public static Upid parse(String raw) {
        if (raw == null || !raw.startsWith("UPID:") || !raw.endsWith(":")) {
            throw new IllegalArgumentException("not a UPID: '" + raw + "'");
        }
        String[] p = raw.substring(5, raw.length() - 1).split(":", -1);
        if (p.length != 7) {
            throw new IllegalArgumentException("a UPID has 7 fields, '" + raw + "' has " + p.length);
        }
        try {
            return new Upid(p[0], Long.parseLong(p[1], 16), Long.parseLong(p[2], 16),
                    Instant.ofEpochSecond(Long.parseLong(p[3], 16)), p[4],
                    p[5].isEmpty() ? Optional.empty() : Optional.of(p[5]), p[6], raw);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("UPID '" + raw + "' has a field that is not hex: " + e.getMessage(), e);
        }
    }

    @Override
    public String toString() {
        return raw;
    }
}
