package io.gpuforge.domain.connections;

import java.util.Objects;

/**
 * Where the host-level work of a hypervisor node happens (probe, plan, apply, verify, reboot, telemetry over
 * SSH): this computer, a saved SSH host, or an SSH address derived from the connection ({@code qemu+ssh://…}).
 * Stored per connection and node when the user links them; guessed otherwise.
 */
public record HostLink(long connectionId, String node, Target target, boolean guessed) {

    public HostLink {
        Objects.requireNonNull(node);
        Objects.requireNonNull(target);
    }

    /** The host a link points at. */
    public sealed interface Target {
        /** A short form for storage and messages: {@code local}, {@code ssh:12}, {@code adhoc:root@pve1:22}. */
        String key();

        static Target parse(String key) {
            if (key.equals("local")) {
                return new Local();
            }
            if (key.startsWith("ssh:")) {
                return new SavedSsh(Long.parseLong(key.substring(4)));
            }
            if (key.startsWith("adhoc:")) {
                return new Adhoc(key.substring(6));
            }
            throw new IllegalArgumentException("not a host link target: '" + key + "'");
        }
    }

    /** This computer. */
    public record Local() implements Target {
        @Override
        public String key() {
            return "local";
        }
    }

    /** A saved SSH connection, with its credentials and login choices. */
    public record SavedSsh(long connectionId) implements Target {
        @Override
        public String key() {
            return "ssh:" + connectionId;
        }
    }

    /** {@code user@host[:port]} reached with the SSH agent, default keys and {@code ~/.ssh/config}. */
    public record Adhoc(String userAtHost) implements Target {
        public Adhoc {
            Objects.requireNonNull(userAtHost);
        }

        @Override
        public String key() {
            return "adhoc:" + userAtHost;
        }
    }
}
