package io.gpuforge.hypervisor.proxmox;

import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.regex.Pattern;

/**
 * How GPUForge logs in to Proxmox VE: an API token (preferred) or a user's password ticket. Neither prints
 * its secret: {@code toString()} shows who, never the token secret, password or one-time code.
 */
public sealed interface PveCredentials {

    /**
     * {@code USER@REALM!TOKENID} and its secret (a UUID). The secret is a {@link String} because it travels
     * as the {@code Authorization} header, which OkHttp takes as a String on every request, and because the
     * CLI reads it from an environment variable, a String already; there is no array to wipe.
     */
    record Token(String tokenId, String secret) implements PveCredentials {

        private static final Pattern ID = Pattern.compile("[^@!\\s]+@[^@!\\s]+![A-Za-z][A-Za-z0-9._-]*");

        public Token {
            if (!isValidId(tokenId)) {
                throw new IllegalArgumentException("An API token id is USER@REALM!TOKENID (e.g. root@pam!gpuforge), not '"
                        + withoutSecret(tokenId) + "'");
            }
            Objects.requireNonNull(secret);
        }

        /** Whether {@code id} has the form {@code USER@REALM!TOKENID}. */
        public static boolean isValidId(String id) {
            return id != null && ID.matcher(id).matches();
        }

        /** Parses {@code USER@REALM!ID=SECRET} (the GPUFORGE_PVE_TOKEN form). */
        public static Token parse(String s) {
            int eq = s == null ? -1 : s.indexOf('=');
            if (eq < 0) {
                throw new IllegalArgumentException("expected USER@REALM!ID=SECRET");
            }
            return new Token(s.substring(0, eq), s.substring(eq + 1));
        }

        /** Someone pasting the whole {@code ID=SECRET} into the id field gets the id back, not the secret. */
        private static String withoutSecret(String id) {
            if (id == null) {
                return "";
            }
            int eq = id.indexOf('=');
            return eq < 0 ? id : id.substring(0, eq) + "=(hidden)";
        }

        String header() {
            return "PVEAPIToken=" + tokenId + "=" + secret;
        }

        @Override
        public String toString() {
            return "Token[tokenId=" + tokenId + ", secret=(hidden)]";
        }
    }

    /**
     * Username with realm ({@code root@pam}) and password; a ticket is fetched and renewed. {@code totp} gives
     * the current one-time code when the account has a second factor (PVE 7/8's TFA challenge step). The
     * array is the caller's: it stays in use for ticket renewals while the client lives.
     */
    record Password(String username, char[] password, Optional<Supplier<String>> totp) implements PveCredentials {
        public Password {
            Objects.requireNonNull(username);
            Objects.requireNonNull(password);
            Objects.requireNonNull(totp);
        }

        public Password(String username, char[] password) {
            this(username, password, Optional.empty());
        }

        @Override
        public String toString() {
            return "Password[username=" + username + ", password=(hidden), totp="
                    + (totp.isPresent() ? "yes" : "no") + "]";
        }
    }
}
