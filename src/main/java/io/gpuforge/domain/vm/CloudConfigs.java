package io.gpuforge.domain.vm;

import java.util.List;
import java.util.stream.Collectors;

/**
 * The cloud-init documents of a new VM: the user-data (the host name, the user with the password's SHA-512 crypt
 * hash ({@code passwd:}, never the password) and/or SSH keys, then the template's cloud-config), the NoCloud
 * meta-data and the network-config (version 2: DHCP or the static address). Values are written as JSON strings, which YAML reads as they are, so a key or password cannot break
 * the document.
 */
public final class CloudConfigs {

    private CloudConfigs() {
    }

    /** The whole user-data for {@code hostname}. */
    public static String userData(String hostname, CloudInit ci) {
        StringBuilder y = new StringBuilder("#cloud-config\n");
        y.append("# written by GPUForge for ").append(hostname.replaceAll("[^A-Za-z0-9._-]", "")).append('\n');
        y.append("hostname: ").append(q(hostname)).append('\n');
        y.append("users:\n");
        y.append("  - name: ").append(q(ci.user())).append('\n');
        y.append("    groups: [sudo]\n");
        y.append("    shell: /bin/bash\n");
        y.append("    sudo: ").append(q("ALL=(ALL) NOPASSWD:ALL")).append('\n');
        y.append("    lock_passwd: ").append(ci.passwordHash().isEmpty()).append('\n');
        ci.passwordHash().ifPresent(p -> y.append("    passwd: ").append(q(p)).append('\n'));
        if (!ci.sshKeys().isEmpty()) {
            y.append("    ssh_authorized_keys: ").append(list(ci.sshKeys())).append('\n');
        }
        y.append("ssh_pwauth: ").append(ci.passwordHash().isPresent()).append('\n');
        ci.userData().ifPresent(body -> {
            String rest = body.startsWith("#cloud-config") ? body.substring(body.indexOf('\n') + 1) : body;
            y.append(rest.endsWith("\n") ? rest : rest + "\n");
        });
        return y.toString();
    }

    public static String metaData(String instanceId, String hostname) {
        return "instance-id: " + q(instanceId) + "\nlocal-hostname: " + q(hostname) + "\n";
    }

    /** Network config version 2 for the first NIC. */
    public static String networkConfig(CloudInit ci) {
        StringBuilder y = new StringBuilder("version: 2\nethernets:\n  nic0:\n    match:\n      name: \"e*\"\n");
        if (ci.ip() instanceof CloudInit.Static) {
            CloudInit.Static s = (CloudInit.Static) ci.ip();
            y.append("    dhcp4: false\n    addresses: ").append(list(List.of(s.cidr()))).append('\n');
            s.gateway().ifPresent(g -> y.append("    routes:\n      - to: default\n        via: ").append(q(g)).append('\n'));
        } else {
            y.append("    dhcp4: true\n");
        }
        if (!ci.dns().isEmpty() || ci.searchDomain().isPresent()) {
            y.append("    nameservers:\n");
            if (!ci.dns().isEmpty()) {
                y.append("      addresses: ").append(list(ci.dns())).append('\n');
            }
            ci.searchDomain().ifPresent(d -> y.append("      search: ").append(list(List.of(d))).append('\n'));
        }
        return y.toString();
    }

    /** A JSON string literal: quotes, backslashes and control characters escaped. */
    static String q(String s) {
        StringBuilder out = new StringBuilder("\"");
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"' || c == '\\') {
                out.append('\\').append(c);
            } else if (c < 0x20 || c == 0x7f || c == 0x2028 || c == 0x2029) {
                out.append(String.format("\\u%04x", (int) c));
            } else {
                out.append(c);
            }
        }
        return out.append('"').toString();
    }

    private static String list(List<String> values) {
        return values.stream().map(CloudConfigs::q).collect(Collectors.joining(", ", "[", "]"));
    }
}
