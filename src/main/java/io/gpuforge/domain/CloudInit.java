package io.gpuforge.domain;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A VM's first-boot settings: the user, a password and/or SSH public keys, the network (DHCP or a static address),
 * and the user-data the template adds (packages, commands). {@link #toString()} never shows the password.
 *
 * @param userData the template's cloud-config, already rendered ({@code #cloud-config} first); empty when the
 *                 template has none (only user, keys and network are set)
 */
public record CloudInit(String user, Optional<String> password, List<String> sshKeys, Ip ip, List<String> dns,
                        Optional<String> searchDomain, Optional<String> userData) {

    public CloudInit {
        Objects.requireNonNull(user);
        Objects.requireNonNull(password);
        Objects.requireNonNull(ip);
        Objects.requireNonNull(searchDomain);
        Objects.requireNonNull(userData);
        sshKeys = List.copyOf(sshKeys);
        dns = List.copyOf(dns);
        if (!user.matches("[a-z_][a-z0-9_-]{0,31}")) {
            throw new IllegalArgumentException("a user name is lower-case letters, digits, '_' and '-' (at most 32),"
                    + " not '" + user + "'");
        }
    }

    /** How the VM's first NIC gets its address. */
    public sealed interface Ip {
    }

    public record Dhcp() implements Ip {
    }

    /** @param cidr {@code 192.0.2.10/24} */
    public record Static(String cidr, Optional<String> gateway) implements Ip {
        public Static {
            Objects.requireNonNull(cidr);
            Objects.requireNonNull(gateway);
        }
    }

    public CloudInit withUserData(Optional<String> rendered) {
        return new CloudInit(user, password, sshKeys, ip, dns, searchDomain, rendered);
    }

    @Override
    public String toString() {
        return "CloudInit[user=" + user + ", password=" + (password.isPresent() ? "(set)" : "(none)") + ", sshKeys="
                + sshKeys.size() + ", ip=" + ip + ", dns=" + dns + ", searchDomain=" + searchDomain.orElse("")
                + ", userData=" + (userData.isPresent() ? userData.get().length() + " chars" : "(none)") + "]";
    }
}
