package io.gpuforge.cli.common;

import io.gpuforge.app.AppContext;
import io.gpuforge.app.connections.SecretsService;
import java.io.Console;
import java.util.Arrays;
import java.util.Optional;

/**
 * GPUForge's encrypted vault from a shell, where no OS keyring answers: its master passphrase from
 * {@code GPUFORGE_VAULT_PASSPHRASE} (scripts), else asked on the terminal without echo. Commands that read a saved
 * secret unlock it when the variable is set; {@code connection add} with a secret sets it up or unlocks it, and
 * asks where it must.
 */
public final class CliVault {

    public static final String PASSPHRASE_VARIABLE = "GPUFORGE_VAULT_PASSPHRASE";

    private CliVault() {
    }

    /** Unlocks a locked vault with the passphrase in the environment, if one is there. */
    static void unlockFromEnvironment(AppContext ctx, CliServices services) throws Exception {
        Optional<String> p = services.env(PASSPHRASE_VARIABLE);
        if (p.isPresent() && ctx.secrets().state() == SecretsService.State.VAULT_LOCKED) {
            ctx.secrets().unlockVault(p.get().toCharArray());
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
                    + "; the window asks for the same passphrase");
        } else {
            ctx.secrets().unlockVault(passphrase);
        }
    }

    private static Optional<char[]> passphrase(CliServices services, boolean create) {
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
