package io.gpuforge.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.app.AppPaths;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The vault put back from an older copy, as a script sees it: the command that unlocks it (the passphrase in
 * GPUFORGE_VAULT_PASSPHRASE) says so on stderr, once per run, until a change makes it current (issue 59).
 */
class VaultRollbackCliTest {

    @TempDir
    Path home;

    @Test
    void aCommandOnAnOlderVaultSaysSo() throws Exception {
        CliHarness cli = new CliHarness(home, Map.of("GPUFORGE_VAULT_PASSPHRASE", "passphrase of the test"));
        Path vault = AppPaths.underHome(home).vaultFile();
        assertThat(cli.run("tok-1\n", new String[] {"alert", "webhook", "--url", "https://ntfy.example.org/gpus",
                "--token-stdin"}))
                .as(cli.err()).isZero();
        byte[] copy = Files.readAllBytes(vault);
        assertThat(cli.run("tok-2\n", new String[] {"alert", "webhook", "--url", "https://ntfy.example.org/gpus",
                "--token-stdin"}))
                .as(cli.err()).isZero();
        assertThat(cli.run("", new String[] {"alert", "webhook"})).isZero();
        assertThat(cli.err()).doesNotContain("warning");

        Files.write(vault, copy);
        assertThat(cli.run("", new String[] {"alert", "webhook"})).isZero();
        assertThat(cli.err()).contains("gpuforge: warning: The vault " + vault + " is older than the one last written"
                + " on this computer");

        // saved again: current, no more warning
        assertThat(cli.run("tok-3\n", new String[] {"alert", "webhook", "--url", "https://ntfy.example.org/gpus",
                "--token-stdin"}))
                .as(cli.err()).isZero();
        assertThat(cli.run("", new String[] {"alert", "webhook"})).isZero();
        assertThat(cli.err()).doesNotContain("warning");
    }
}
