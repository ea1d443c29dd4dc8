package io.gpuforge.cli.common;

import io.gpuforge.app.AppContext;
import io.gpuforge.app.connections.SecretsService;
import java.io.Console;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Optional;

/**
 * GPUForge's encrypted vault from a shell, where no OS keyring answers: its master passphrase from the systemd
 * credential {@code vault-passphrase} ({@code $CREDENTIALS_DIRECTORY/vault-passphrase}: the system service's unit
 * hands over a root-only file with {@code LoadCredential=}), else from {@code GPUFORGE_VAULT_PASSPHRASE} (scripts),
 * else asked on the terminal without echo. Commands that read a saved
 * secret unlock it when the variable is set; {@code connection add} with a secret sets it up or unlocks it, and
 * asks where it must.
 */
public final class CliVault {

    public static final String PASSPHRASE_VARIABLE = "GPUFORGE_VAULT_PASSPHRASE";
    /** The name of the systemd credential (the file in {@code $CREDENTIALS_DIRECTORY}) that holds the passphrase. */
    public static final String CREDENTIAL = "vault-passphrase";
    /** A passphrase file is a line of text; anything longer is not one. */
    private static final int CREDENTIAL_LIMIT = 4096;

    private CliVault() {
    }

    /** Unlocks a locked vault with the passphrase in the environment, if one is there. */
    static void unlockFromEnvironment(AppContext ctx, CliServices services) throws Exception {
        if (ctx.secrets().state() != SecretsService.State.VAULT_LOCKED) {
            return;
        }
        Optional<char[]> p = credential(services);
        if (p.isEmpty()) {
            p = services.env(PASSPHRASE_VARIABLE).map(String::toCharArray);
        }
        if (p.isPresent()) {
            try {
                ctx.secrets().unlockVault(p.get());
            } finally {
                Arrays.fill(p.get(), '\0');
            }
            warnIfRolledBack(ctx, services);
        }
    }

    /** Says on stderr when the vault just unlocked is older than the one last written on this computer. */
    private static void warnIfRolledBack(AppContext ctx, CliServices services) {
        ctx.secrets().vaultRolledBack().ifPresent(w -> services.output().error("gpuforge: warning: " + w));
    }

    /**
     * The passphrase systemd handed over as the credential {@value #CREDENTIAL} (its file's first line); empty when
     * no credentials directory is set or it holds no such file.
     *
     * @throws IOException when the file is there but cannot be read, or is no passphrase (empty, over 4 KiB)
     */
    static Optional<char[]> credential(CliServices services) throws IOException {
        Optional<String> dir = services.env("CREDENTIALS_DIRECTORY").filter(d -> !d.isBlank());
        if (dir.isEmpty() || !Files.exists(Path.of(dir.get(), CREDENTIAL))) {
            return Optional.empty();
        }
        Path file = Path.of(dir.get(), CREDENTIAL);
        byte[] bytes;
        try (InputStream in = Files.newInputStream(file)) {
            bytes = in.readNBytes(CREDENTIAL_LIMIT + 1);
        }
        try {
            if (bytes.length > CREDENTIAL_LIMIT) {
                throw new IOException("the credential " + file + " holds more than " + CREDENTIAL_LIMIT
                        + " bytes: it is not a passphrase");
            }
            CharBuffer chars = StandardCharsets.UTF_8.decode(ByteBuffer.wrap(bytes));
            int end = 0;
            while (end < chars.limit() && chars.get(end) != '\n' && chars.get(end) != '\r') {
                end++;
            }
            if (end == 0) {
                throw new IOException("the credential " + file + " is empty: write the vault's passphrase in it");
            }
            char[] out = new char[end];
            chars.get(out, 0, end);
            Arrays.fill(chars.array(), '\0');
            return Optional.of(out);
        } finally {
            Arrays.fill(bytes, (byte) 0);
        }
    }

    /** The secret store ready to keep a secret: the keyring, or the vault set up or unlocked; refused otherwise. */
    public static void readyToStore(AppContext ctx, CliServices services) throws Exception {
        SecretsService.State state = ctx.secrets().state();
        if (state == SecretsService.State.KEYRING || state == SecretsService.State.VAULT_UNLOCKED) {
            return;
        }
        boolean create = state == SecretsService.State.VAULT_NOT_SET_UP;
        char[] passphrase = passphrase(services, create).orElseThrow(() -> new IllegalArgumentException(
                "no OS keyring answers and GPUForge's vault is " + (create ? "not set up" : "locked") + ": set "
                        + PASSPHRASE_VARIABLE + ", or run this on a terminal to be asked for its passphrase"));
        if (create) {
            ctx.secrets().createVault(passphrase);
            services.output().error("note: GPUForge's vault is set up in " + services.paths().vaultFile()
                    + (credential(services).isPresent() ? " with the passphrase of the credential " + CREDENTIAL
                    : "; the window asks for the same passphrase"));
        } else {
            ctx.secrets().unlockVault(passphrase);
            warnIfRolledBack(ctx, services);
        }
    }

    private static Optional<char[]> passphrase(CliServices services, boolean create) throws IOException {
        Optional<char[]> handedOver = credential(services);
        if (handedOver.isPresent()) {
            return handedOver;
        }
        Optional<String> env = services.env(PASSPHRASE_VARIABLE);
        if (env.isPresent()) {
            return env.map(String::toCharArray);
        }
        Console console = System.console();
        if (console == null) {
            return Optional.empty();
        }
        char[] first = console.readPassword(create ? "A passphrase for GPUForge's new vault: "
                : "GPUForge's vault passphrase: ");
        if (first == null || !create) {
            return Optional.ofNullable(first);
        }
        char[] again = console.readPassword("The same passphrase again: ");
        if (again == null || !Arrays.equals(first, again)) {
            Arrays.fill(first, '\0');
            throw new IllegalArgumentException("the two passphrases differ: the vault is not set up");
        }
        Arrays.fill(again, '\0');
        return Optional.of(first);
    }
}
