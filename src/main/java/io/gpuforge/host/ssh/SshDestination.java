package io.gpuforge.host.ssh;

import java.util.Objects;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where to log in, as the user typed it: {@code [user@]host[:port]}, where the host may be a {@code Host} alias of
 * {@code ~/.ssh/config}. What is not typed (user, port) is left to the SSH config, then to the defaults (the local
 * user, port 22), as {@code ssh} does. IPv6 hosts in brackets.
 *
 * @param port 0 when not given
 */
public record SshDestination(Optional<String> user, String host, int port) {

    private static final Pattern FORM = Pattern.compile(
            "^(?:([^@\\s]+)@)?(\\[[0-9a-fA-F:.]+\\]|[^:@\\s\\[\\]]+)(?::(\\d{1,5}))?$");

    public SshDestination {
        Objects.requireNonNull(user);
        Objects.requireNonNull(host);
        if (host.isBlank()) {
            throw new IllegalArgumentException("An SSH destination needs a host");
        }
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("SSH port out of range: " + port);
        }
    }

    /** {@code [user@]host[:port]} or an alias; a usage error naming the text otherwise. */
    public static SshDestination parse(String text) {
        Matcher m = FORM.matcher(text == null ? "" : text.strip());
        if (!m.matches() || (m.group(3) != null && Integer.parseInt(m.group(3)) == 0)) {
            throw new IllegalArgumentException("Not [user@]host[:port] or a Host alias of ~/.ssh/config: '" + text + "'");
        }
        String host = m.group(2);
        if (host.startsWith("[")) {
            host = host.substring(1, host.length() - 1);
        }
        int port = m.group(3) == null ? 0 : Integer.parseInt(m.group(3));
        if (port > 65535) {
            throw new IllegalArgumentException("SSH port out of range in '" + text + "'");
        }
        return new SshDestination(Optional.ofNullable(m.group(1)), host, port);
    }

    /** A fully given target: nothing is left to the SSH config. */
    public static SshDestination of(SshTarget t) {
        return new SshDestination(Optional.of(t.user()), t.host(), t.port());
    }

    @Override
    public String toString() {
        return user.map(u -> u + "@").orElse("") + (host.contains(":") ? "[" + host + "]" : host)
                + (port == 0 ? "" : ":" + port);
    }
}
