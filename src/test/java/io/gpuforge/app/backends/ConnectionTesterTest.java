package io.gpuforge.app.backends;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.app.connections.SecretsService;
import io.gpuforge.app.backends.ConnectionTester.Field;
import io.gpuforge.app.backends.ConnectionTester.ProxmoxLogin;
import io.gpuforge.app.backends.ConnectionTester.Report;
import io.gpuforge.demo.PveSimulator;
import io.gpuforge.demo.SimCluster;
import io.gpuforge.domain.connections.ConnectionOptions;
import io.gpuforge.store.secret.VaultSecretStore;
import io.gpuforge.testing.HostTrees;
import io.gpuforge.testing.SshKeys;
import io.gpuforge.testing.SysrootSshServer;
import io.gpuforge.testing.Tools;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.PublicKey;
import java.util.Optional;
import org.apache.sshd.common.config.keys.PublicKeyEntry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * "Test connection" against real parts: the Proxmox simulator over HTTPS (token, password with a second factor, a
 * certificate not trusted yet, a token missing privileges), libvirt's test driver, and an SSH server on loopback
 * (password, an encrypted key made by ssh-keygen).
 */
class ConnectionTesterTest {

    @TempDir
    Path dir;
    private PveSimulator sim;
    private Backends backends;
    private ConnectionTester tester;

    @BeforeEach
    void setUp() throws Exception {
        sim = new PveSimulator(SimCluster.demo());
        SecretsService secrets = new SecretsService(Optional.empty(), new VaultSecretStore(dir.resolve("v"), 1000));
        backends = new Backends(secrets, new LibvirtBackends());
        tester = new ConnectionTester(backends, new LibvirtBackends(), dir.resolve("known_hosts"));
    }

    @AfterEach
    void tearDown() {
        backends.close();
        sim.close();
    }

    private String secret() {
        return sim.token().substring(sim.token().indexOf('=') + 1);
    }

    private Report token(String secret, Optional<String> pin) {
        return tester.proxmox(new ProxmoxLogin(sim.url(), PveSimulator.TOKEN_ID, secret.toCharArray(), pin,
                Optional.empty()));
    }

    @Test
    void aGoodTokenReportsTheVersionTheNodesAndThatNoPrivilegeIsMissing() {
        Report r = token(secret(), Optional.of(sim.certificateFingerprint()));
        assertThat(r.ok()).as(r.message()).isTrue();
        assertThat(r.versions()).contains("Proxmox VE 8.4.1");
        assertThat(r.nodes()).hasValue(3);
        assertThat(r.vms()).as("train-01 and the four whose start fails").hasValue(5);
        assertThat(r.missing()).isEmpty();
    }

    @Test
    void aCertificateNotTrustedYetIsReportedWithItsFingerprintToAccept() {
        Report r = token(secret(), Optional.empty());
        assertThat(r.ok()).isFalse();
        assertThat(r.untrustedFingerprint()).contains(sim.certificateFingerprint());
        assertThat(r.field()).contains(Field.URL);
        assertThat(r.message()).contains("not trusted");
    }

    @Test
    void aWrongTokenSecretIsReportedOnTheSecretField() {
        Report r = token("00000000-0000-0000-0000-000000000000", Optional.of(sim.certificateFingerprint()));
        assertThat(r.ok()).isFalse();
        assertThat(r.field()).contains(Field.TOKEN_SECRET);
        assertThat(r.message()).contains("refused the API token");
    }

    @Test
    void aMalformedTokenIdIsReportedOnTheTokenIdField() {
        Report r = tester.proxmox(new ProxmoxLogin(sim.url(), "root@pam!", "x".toCharArray(),
                Optional.of(sim.certificateFingerprint()), Optional.empty()));
        assertThat(r.field()).contains(Field.TOKEN_ID);
    }

    @Test
    void aTokenWithoutMappingModifyIsReportedAsMissingThatPrivilege() {
        sim.cluster().withhold(PveSimulator.TOKEN_ID, "Mapping.Modify", "VM.Config.HWType");
        Report r = token(secret(), Optional.of(sim.certificateFingerprint()));
        assertThat(r.ok()).isTrue();
        assertThat(r.missing()).extracting(PrivilegeCheck.Missing::privilege)
                .containsExactly("VM.Config.HWType", "Mapping.Modify");
        assertThat(r.missing()).extracting(PrivilegeCheck.Missing::purpose).containsExactly("gpu-attach", "mapping-modify");
        assertThat(r.missing()).extracting(PrivilegeCheck.Missing::path).containsExactly("/vms", "/mapping/pci");
    }

    @Test
    void aPasswordLoginWithASecondFactorAsksForTheCodeThenReportsWhatTheUserLacks() {
        char[] pw = sim.password().toCharArray();
        Report first = tester.proxmox(new ProxmoxLogin(sim.url(), PveSimulator.TFA_USER, pw,
                Optional.of(sim.certificateFingerprint()), Optional.empty()));
        assertThat(pw).containsOnly('\0');
        assertThat(first.ok()).isFalse();
        assertThat(first.field()).contains(Field.ONE_TIME_CODE);
        Report second = tester.proxmox(new ProxmoxLogin(sim.url(), PveSimulator.TFA_USER,
                sim.password().toCharArray(), Optional.of(sim.certificateFingerprint()),
                Optional.of(PveSimulator.TOTP_CODE)));
        assertThat(second.ok()).as(second.message()).isTrue();
        assertThat(second.missing()).extracting(PrivilegeCheck.Missing::privilege)
                .contains("VM.PowerMgmt", "Mapping.Use", "Mapping.Modify", "VM.Config.HWType");
    }

    @Test
    void aWrongPasswordIsReportedOnThePasswordField() {
        Report r = tester.proxmox(new ProxmoxLogin(sim.url(), "root@pam", "wrong".toCharArray(),
                Optional.of(sim.certificateFingerprint()), Optional.empty()));
        assertThat(r.field()).contains(Field.PASSWORD);
    }

    @Test
    void aPlainHttpAddressIsReportedOnTheUrlField() {
        Report r = tester.proxmox(new ProxmoxLogin("http://127.0.0.1:8006", PveSimulator.TOKEN_ID, "x".toCharArray(),
                Optional.empty(), Optional.empty()));
        assertThat(r.field()).contains(Field.URL);
        assertThat(r.message()).contains("https://");
    }

    @Test
    void theDemoLabReportsItsSimulatedCluster() {
        Report r = tester.demo();
        assertThat(r.ok()).as(r.message()).isTrue();
        assertThat(r.nodes()).hasValue(3);
    }

    @Test
    void aLibvirtUriIsOpenedAndItsHostReported() {
        Tools.require("virsh", "libvirt-clients");
        Report r = tester.libvirt("test://" + Path.of("src/test/resources/libvirt/gpu-host.xml").toAbsolutePath());
        assertThat(r.ok()).as(r.message()).isTrue();
        assertThat(r.versions().orElse("")).startsWith("libvirt ");
        assertThat(r.nodes()).hasValue(1);
    }

    @Test
    void aLibvirtUriThatCannotBeOpenedIsReportedOnTheUriField() {
        Report r = tester.libvirt("test:///" + dir.resolve("no-such-host.xml"));
        assertThat(r.ok()).isFalse();
        assertThat(r.field()).contains(Field.URI);
    }

    @Test
    void anSshHostIsReachedWithItsPassword() throws Exception {
        try (SysrootSshServer server = new SysrootSshServer(HostTrees.intelGrub(Files.createDirectories(dir.resolve("r"))),
                dir.resolve("hk"))) {
            Report r = tester.ssh("root@127.0.0.1:" + server.port(), Optional.of(SysrootSshServer.PASSWORD.toCharArray()),
                    ConnectionOptions.ssh(false, Optional.empty(), false), Optional.empty(), (h, t, f) -> true);
            assertThat(r.ok()).as(r.message()).isTrue();
            Report wrong = tester.ssh("root@127.0.0.1:" + server.port(), Optional.of("nope".toCharArray()),
                    ConnectionOptions.ssh(false, Optional.empty(), false), Optional.empty(), (h, t, f) -> true);
            assertThat(wrong.ok()).isFalse();
            assertThat(wrong.field()).contains(Field.PASSWORD);
        }
    }

    @Test
    void anEncryptedKeyWithoutItsPassphraseIsAskedForBeforeLoggingIn() throws Exception {
        Tools.require("ssh-keygen", "openssh-client");
        Path key = dir.resolve("id_ed25519");
        Process p = new ProcessBuilder("ssh-keygen", "-q", "-t", "ed25519", "-N", "pass phrase", "-f", key.toString())
                .redirectErrorStream(true).start();
        assertThat(p.waitFor()).isZero();
        PublicKey pub = PublicKeyEntry.parsePublicKeyEntry(Files.readString(dir.resolve("id_ed25519.pub")).strip())
                .resolvePublicKey(null, null, null);
        try (SysrootSshServer server = new SysrootSshServer(HostTrees.intelGrub(Files.createDirectories(dir.resolve("r"))),
                dir.resolve("hk"), pub)) {
            ConnectionOptions withKey = ConnectionOptions.ssh(false, Optional.of(key.toString()), false);
            Report asked = tester.ssh("root@127.0.0.1:" + server.port(), Optional.empty(), withKey, Optional.empty(),
                    (h, t, f) -> true);
            assertThat(asked.ok()).isFalse();
            assertThat(asked.field()).contains(Field.PASSPHRASE);
            assertThat(server.execChannels()).as("nothing was run before the passphrase was known").isZero();
            Report ok = tester.ssh("root@127.0.0.1:" + server.port(), Optional.empty(), withKey,
                    Optional.of("pass phrase".toCharArray()), (h, t, f) -> true);
            assertThat(ok.ok()).as(ok.message()).isTrue();
        }
    }

    @Test
    void aKeyFileOthersCanReadIsReportedOnTheKeyFieldWithTheFix() throws Exception {
        Path key = SshKeys.ed25519(dir.resolve("keys/id_ed25519"), "");
        Files.setPosixFilePermissions(key, PosixFilePermissions.fromString("rw-r--r--"));
        try (SysrootSshServer server = new SysrootSshServer(HostTrees.intelGrub(Files.createDirectories(dir.resolve("r"))),
                dir.resolve("hk"), SshKeys.publicKey(key))) {
            Report r = tester.ssh("root@127.0.0.1:" + server.port(), Optional.empty(),
                    ConnectionOptions.ssh(false, Optional.of(key.toString()), false), Optional.empty(), (h, t, f) -> true);
            assertThat(r.ok()).isFalse();
            assertThat(r.field()).contains(Field.IDENTITY_FILE);
            assertThat(r.message()).contains("accessible by others", "chmod 600 " + key);
            assertThat(server.logins()).isEmpty();
        }
    }
}
