package io.gpuforge.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gpuforge.app.AppPaths;
import io.gpuforge.demo.PveSimulator;
import io.gpuforge.demo.SimCluster;
import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import io.gpuforge.cli.common.CliOutput;
import io.gpuforge.cli.common.CliVault;

/**
 * A Proxmox VE cluster scripted from a bare shell with the CLI alone, against the simulator: {@code connection add}
 * with the token on stdin (an untrusted certificate refused with its fingerprint first, then pinned), {@code
 * connection test}, {@code inventory --connection}, {@code vm create} by the saved connection and again on the spot,
 * {@code vm list --json}, {@code vm stop}; a password login saved too, an account with a second factor refused.
 */
class ConnectionAddPveCliTest {

    private static final String VAULT = "vault passphrase of the test";
    @TempDir
    Path home;
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();
    private PveSimulator sim;
    private String token;

    @BeforeEach
    void start() throws Exception {
        sim = new PveSimulator(SimCluster.demo());
        token = sim.token();
    }

    @AfterEach
    void stop() {
        sim.close();
    }

    private int run(Map<String, String> env, String stdin, String... args) {
        out.getBuffer().setLength(0);
        err.getBuffer().setLength(0);
        return GpuForgeCli.run(args, AppPaths.underHome(home), new CliOutput(new PrintWriter(out), new PrintWriter(err)),
                new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)), env);
    }

    private int run(String stdin, String... args) {
        return run(Map.of(CliVault.PASSPHRASE_VARIABLE, VAULT), stdin, args);
    }

    @Test
    void aClusterIsSavedWithItsTokenOnStdinAndUsedByNameAndOnTheSpot() throws Exception {
        // the certificate is not trusted by the system: refused, with the fingerprint to check and pin
        assertThat(run(token + "\n", "connection", "add", "lab", "--pve", sim.url(), "--token-stdin")).isEqualTo(1);
        assertThat(err.toString()).contains("its SHA-256 fingerprint is " + sim.certificateFingerprint(),
                "--fingerprint " + sim.certificateFingerprint());
        assertThat(run("", "connection", "list")).isZero();
        assertThat(out.toString()).as("nothing saved").doesNotContain("lab");

        assertThat(run(token + "\n", "connection", "add", "lab", "--pve", sim.url(), "--fingerprint",
                sim.certificateFingerprint(), "--token-stdin")).as(err.toString()).isZero();
        assertThat(out.toString()).contains("saved lab (proxmox " + sim.url() + ")");
        assertThat(run("", "connection", "list", "--json")).isZero();
        JsonNode saved = new ObjectMapper().readTree(out.toString()).get("connections").get(0);
        assertThat(saved.get("secret").asBoolean()).as("the token is in the secret store").isTrue();
        assertThat(saved.get("fingerprint").asText()).isEqualTo(sim.certificateFingerprint());
        String secret = token.substring(token.indexOf('=') + 1);
        assertThat(new String(Files.readAllBytes(home.resolve("data/gpuforge.db")), StandardCharsets.ISO_8859_1))
                .as("the token's secret is not in SQLite").doesNotContain(secret);

        assertThat(run("", "connection", "test", "lab")).as(err.toString()).isZero();
        assertThat(run("", "inventory", "--connection", "lab", "--json")).as(err.toString()).isZero();
        assertThat(out.toString()).contains("train-01");

        assertThat(run("a VM password\n", "vm", "create", "--connection", "lab", "--node", "pve-3090", "--template",
                "ubuntu-cuda", "--name", "saved-01", "--password-stdin", "--start")).as(err.toString()).isZero();
        assertThat(run(token + "\na VM password\n", "vm", "create", "--pve", sim.url(), "--fingerprint",
                sim.certificateFingerprint(), "--token-stdin", "--node", "pve-3090", "--template", "ubuntu-cuda",
                "--name", "spot-01", "--password-stdin")).as(err.toString()).isZero();
        assertThat(out.toString()).as("the setup's hint names the cluster as it was named, its token from stdin")
                .contains("gpuforge vm provision --pve " + sim.url() + " --fingerprint " + sim.certificateFingerprint()
                        + " --token-stdin --node pve-3090");
        assertThat(run("", "vm", "list", "--connection", "lab", "--json")).as(err.toString()).isZero();
        assertThat(out.toString()).contains("\"saved-01\"", "\"spot-01\"");
        assertThat(run("", "vm", "stop", "saved-01", "--connection", "lab")).as(err.toString()).isZero();
        assertThat(out.toString()).startsWith("stop pve-3090/");
    }

    @Test
    void aPasswordLoginIsSavedAndASecondFactorOrAWrongTokenIsRefused() {
        String pin = sim.certificateFingerprint();
        assertThat(run(sim.password() + "\n", "connection", "add", "root", "--pve", sim.url(), "--fingerprint",
                pin, "--pve-user", "root@pam", "--pve-password-stdin")).as(err.toString()).isZero();
        assertThat(run("", "connection", "test", "root")).as(err.toString()).isZero();

        assertThat(run(sim.password() + "\n", "connection", "add", "ops", "--pve", sim.url(), "--fingerprint",
                pin, "--pve-user", PveSimulator.TFA_USER, "--pve-password-stdin")).isEqualTo(1);
        assertThat(err.toString()).contains("has a second factor", "--token-stdin");

        String wrong = token.substring(0, token.indexOf('=') + 1) + "not-the-secret";
        assertThat(run(wrong + "\n", "connection", "add", "bad", "--pve", sim.url(), "--fingerprint", pin,
                "--token-stdin")).isEqualTo(1);
        assertThat(err.toString()).startsWith("gpuforge connection add: ").doesNotContain("not-the-secret");
        assertThat(run("", "connection", "list")).isZero();
        assertThat(out.toString()).contains("root").doesNotContain("ops").doesNotContain("bad");
    }

    /**
     * The system service's way: systemd hands the root-only passphrase file over as the credential vault-passphrase
     * ($CREDENTIALS_DIRECTORY); the vault is set up and unlocked with it, ahead of the variable, and nothing else.
     */
    @Test
    void theServiceCredentialSetsUpAndUnlocksTheVault() throws Exception {
        Path credentials = Files.createDirectories(home.resolve("run/credentials/gpuforge.service"));
        Files.writeString(credentials.resolve(CliVault.CREDENTIAL), "from the credential file\n");
        Map<String, String> service = Map.of("CREDENTIALS_DIRECTORY", credentials.toString());
        assertThat(run(service, token + "\n", "connection", "add", "lab", "--pve", sim.url(), "--fingerprint",
                sim.certificateFingerprint(), "--token-stdin")).as(err.toString()).isZero();
        assertThat(run(service, "", "connection", "test", "lab")).as(err.toString()).isZero();
        assertThat(run(Map.of("CREDENTIALS_DIRECTORY", credentials.toString(), CliVault.PASSPHRASE_VARIABLE,
                "not the passphrase"), "", "connection", "test", "lab")).as("the credential comes first: " + err)
                .isZero();
        assertThat(run(Map.of(CliVault.PASSPHRASE_VARIABLE, "from the credential file"), "", "connection", "test",
                "lab")).as("the same vault, its passphrase typed by the admin: " + err).isZero();
        assertThat(run(Map.of(CliVault.PASSPHRASE_VARIABLE, VAULT), "", "connection", "test", "lab"))
                .as("another passphrase does not open it").isNotZero();

        Files.writeString(credentials.resolve(CliVault.CREDENTIAL), "\n");
        assertThat(run(service, "", "connection", "test", "lab")).isNotZero();
        assertThat(err.toString()).contains(CliVault.CREDENTIAL, "is empty");
    }

    @Test
    void withoutAKeyringOrAVaultPassphraseNothingIsSaved() {
        assertThat(run(Map.of(), token + "\n", "connection", "add", "lab", "--pve", sim.url(), "--fingerprint",
                sim.certificateFingerprint(), "--token-stdin")).as("a usage error: say how to reach the vault")
                .isEqualTo(2);
        assertThat(err.toString()).contains("set " + CliVault.PASSPHRASE_VARIABLE);
        assertThat(run("", "connection", "add", "lab", "--pve", "pve1:8006", "--token-stdin")).isEqualTo(2);
        assertThat(err.toString()).contains("--pve needs the cluster's https URL");
    }
}
