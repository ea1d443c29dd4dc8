package io.gpuforge.domain.vm;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A VM's first-boot settings: the user, a password (as its SHA-512 crypt hash) and/or SSH public keys, the network
 * (DHCP or a static address), and the user-data the template adds (packages, commands). The password itself never
 * gets here: the window and the CLI hash it where it is typed ({@code app/vmcreate/PasswordHash}), and the hash is what goes
 * to cloud-init ({@code passwd:}) and Proxmox VE ({@code cipassword}). {@link #toString()} never shows the hash.
 *
 * @param passwordHash {@code $6$salt$…}; anything else is refused (a plain password must not pass for a hash)
 * @param userData the template's cloud-config, already rendered ({@code #cloud-config} first); empty when the
 *                 template has none (only user, keys and network are set)
 */
public record CloudInit(String user, Optional<String> passwordHash, List<String> sshKeys, Ip ip, List<String> dns,
                        Optional<String> searchDomain, Optional<String> userData) {

    /** A SHA-512 crypt hash: {@code $6$}, an optional {@code rounds=N$}, a salt of up to 16 characters, 86 more. */
    public static final Pattern SHA512_CRYPT = Pattern.compile(
            "\\$6\\$(rounds=[1-9][0-9]{0,8}\\$)?[./0-9A-Za-z]{0,16}\\$[./0-9A-Za-z]{86}");

    public CloudInit {
        Objects.requireNonNull(user);
        Objects.requireNonNull(passwordHash);
        if (passwordHash.isPresent() && !SHA512_CRYPT.matcher(passwordHash.get()).matches()) {
            throw new IllegalArgumentException("the password must be given as its SHA-512 crypt hash ($6$…)");
        }
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
        return new CloudInit(user, passwordHash, sshKeys, ip, dns, searchDomain, rendered);
    }

    @Override
    public String toString() {
        return "CloudInit[user=" + user + ", password=" + (passwordHash.isPresent() ? "(set)" : "(none)") + ", sshKeys="
                + sshKeys.size() + ", ip=" + ip + ", dns=" + dns + ", searchDomain=" + searchDomain.orElse("")
                + ", userData=" + (userData.isPresent() ? userData.get().length() + " chars" : "(none)") + "]";
    }
}
