package io.gpuforge.hypervisor.proxmox;

import java.util.Objects;

/** How GPUForge logs in to Proxmox VE: an API token (preferred) or a user's password ticket. */
public sealed interface PveCredentials {

    /** {@code USER@REALM!TOKENID} and its secret (a UUID). */
    record Token(String tokenId, String secret) implements PveCredentials {
        public Token {
            if (tokenId == null || !tokenId.matches("[^@!\\s]+@[^@!\\s]+![A-Za-z][A-Za-z0-9._-]*")) {
                throw new IllegalArgumentException("an API token id is USER@REALM!TOKENID: '" + tokenId + "'");
            }
            Objects.requireNonNull(secret);
        }

        /** Parses {@code USER@REALM!ID=SECRET} (the GPUFORGE_PVE_TOKEN form). */
        public static Token parse(String s) {
            int eq = s == null ? -1 : s.indexOf('=');
            if (eq < 0) {
                throw new IllegalArgumentException("expected USER@REALM!ID=SECRET");
            }
            return new Token(s.substring(0, eq), s.substring(eq + 1));
        }

        String header() {
            return "PVEAPIToken=" + tokenId + "=" + secret;
        }
    }

    /**
     * Username with realm ({@code root@pam}) and password; a ticket is fetched and renewed. {@code totp} gives
     * the current one-time code when the account has a second factor (PVE 7/8's TFA challenge step).
     */
    record Password(String username, char[] password, java.util.Optional<java.util.function.Supplier<String>> totp)
            implements PveCredentials {
        public Password {
            Objects.requireNonNull(username);
            Objects.requireNonNull(password);
            Objects.requireNonNull(totp);
        }

        public Password(String username, char[] password) {
            this(username, password, java.util.Optional.empty());
        }
    }
}
