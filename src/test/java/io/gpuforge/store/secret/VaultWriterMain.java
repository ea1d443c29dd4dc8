package io.gpuforge.store.secret;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * Another GPUForge process on the same vault, for {@link VaultSecretStoreProcessTest}. Arguments: the vault
 * file and a name prefix. Reads the passphrase from the first line of stdin, unlocks, prints "ready", waits
 * for a second line, then puts {@code count} secrets {@code <prefix><i>} = {@code value-<prefix><i>} and
 * prints "done".
 */
public final class VaultWriterMain {

    private VaultWriterMain() {
    }

    public static void main(String[] args) throws Exception {
        Path file = Path.of(args[0]);
        String prefix = args[1];
        int count = Integer.parseInt(args[2]);
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        VaultSecretStore vault = new VaultSecretStore(file, 1000);
        vault.unlock(in.readLine().toCharArray());
        System.out.println("ready");
        System.out.flush();
        in.readLine();
        for (int i = 0; i < count; i++) {
            vault.put(prefix + i, ("value-" + prefix + i).toCharArray());
        }
        System.out.println("done");
        System.out.flush();
    }
}
