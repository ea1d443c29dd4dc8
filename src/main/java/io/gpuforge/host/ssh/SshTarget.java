package io.gpuforge.host.ssh;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** {@code user@host[:port]} as typed on the command line; IPv6 hosts in brackets. */
public record SshTarget(String user, String host, int port) {

    private static final Pattern FORM = Pattern.compile("^(?:([^@\\s]+)@)?(\\[[0-9a-fA-F:.]+\\]|[^:@\\s\\[\\]]+)(?::(\\d{1,5}))?$");

    public SshTarget {
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("SSH port out of range: " + port);
        }
    }

    public static SshTarget parse(String text, String defaultUser) {
        Matcher m = FORM.matcher(text == null ? "" : text.strip());
        if (!m.matches()) {
            throw new IllegalArgumentException("Not user@host[:port]: '" + text + "'");
        }
        String host = m.group(2);
        if (host.startsWith("[")) {
            host = host.substring(1, host.length() - 1);
        }
        return new SshTarget(m.group(1) == null ? defaultUser : m.group(1), host,
                m.group(3) == null ? 22 : Integer.parseInt(m.group(3)));
    }

    @Override
    public String toString() {
        return user + "@" + (host.contains(":") ? "[" + host + "]" : host) + (port == 22 ? "" : ":" + port);
    }
}
