package io.gpuforge.ui.connections;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.app.AppContext;
import io.gpuforge.app.backends.ConnectionTester.Field;
import io.gpuforge.app.settings.LanguageChoice;
import io.gpuforge.app.settings.ThemeChoice;
import io.gpuforge.demo.PveSimulator;
import io.gpuforge.demo.SimCluster;
import io.gpuforge.domain.connections.ConnectionInfo;
import io.gpuforge.testing.HostTrees;
import io.gpuforge.testing.TestContexts;
import io.gpuforge.ui.common.BackgroundTasks;
import io.gpuforge.ui.common.I18n;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The connection form without a window: every field checked as typed, "Test connection" putting what it found on
 * the right field, edit mode keeping stored secrets. Real app services (SQLite, vault) and the Proxmox simulator;
 * the background tasks run on the calling thread.
 */
class AddConnectionViewModelTest {

    @TempDir
    Path dir;
    private AppContext app;
    private PveSimulator sim;
    private final I18n i18n = new I18n(Locale.ENGLISH);

    @BeforeEach
    void setUp() throws Exception {
        app = TestContexts.create(dir.resolve("home"), HostTrees.proxmoxSystemdBoot(dir.resolve("sysroot")),
                ThemeChoice.LIGHT, LanguageChoice.ENGLISH);
        app.secrets().createVault("a long passphrase".toCharArray());
        sim = new PveSimulator(SimCluster.demo());
    }

    @AfterEach
    void tearDown() {
        sim.close();
        app.close();
    }

    private AddConnectionViewModel model(Optional<ConnectionInfo> editing) {
        return new AddConnectionViewModel(app.connections(), app.tester(), (h, t, f) -> true, BackgroundTasks.sameThread(),
                i18n, editing);
    }

    private void fillProxmox(AddConnectionViewModel m, String secret) {
        m.kindProperty().set(AddConnectionViewModel.Kind.PROXMOX);
        m.nameProperty().set("lab-pve");
        m.pveUrlProperty().set(sim.url());
        m.tokenIdProperty().set(PveSimulator.TOKEN_ID);
        m.tokenSecretProperty().set(secret);
    }

    private String secret() {
        return sim.token().substring(sim.token().indexOf('=') + 1);
    }

    @Test
    void everyFieldIsCheckedAsYouTypeForTheKindChosen() {
        AddConnectionViewModel m = model(Optional.empty());
        assertThat(m.nameProblem()).isEqualTo("A name is required");
        assertThat(m.validProperty().get()).isFalse();
        m.nameProperty().set("z790");
        m.targetProperty().set("root@@host");
        assertThat(m.problem(Field.TARGET)).isEqualTo("Write it as user@host or user@host:port");
        m.targetProperty().set("root@192.0.2.10:2222");
        assertThat(m.problem(Field.TARGET)).isNull();
        assertThat(m.validProperty().get()).isTrue();
        m.sshAuthProperty().set(ConnectionForm.SshAuth.KEY_FILE);
        assertThat(m.problem(Field.IDENTITY_FILE)).contains("private key file");
        m.identityFileProperty().set(dir.resolve("no-such-key").toString());
        assertThat(m.problem(Field.IDENTITY_FILE)).contains("no such file");
        assertThat(m.validProperty().get()).isFalse();

        m.kindProperty().set(AddConnectionViewModel.Kind.PROXMOX);
        assertThat(m.problem(Field.TARGET)).as("an SSH field does not count for Proxmox").isNull();
        m.pveUrlProperty().set("http://pve1:8006");
        assertThat(m.problem(Field.URL)).contains("https://host:8006");
        m.pveUrlProperty().set("https://pve1:8006");
        m.tokenIdProperty().set("root@pam");
        assertThat(m.problem(Field.TOKEN_ID)).contains("USER@REALM!TOKENID");
        m.tokenIdProperty().set("root@pam!gpuforge");
        assertThat(m.problem(Field.TOKEN_SECRET)).contains("token secret is needed");
        m.tokenSecretProperty().set("s");
        assertThat(m.validProperty().get()).isTrue();
        m.pveAuthProperty().set(ConnectionForm.PveAuth.PASSWORD);
        m.pveUserProperty().set("ops@pve");
        assertThat(m.problem(Field.USER)).contains("without @");
        m.pveUserProperty().set("ops");
        m.realmProperty().set("pve");
        assertThat(m.problem(Field.PASSWORD)).isEqualTo("The password is needed");

        m.kindProperty().set(AddConnectionViewModel.Kind.LIBVIRT);
        m.uriProperty().set("system");
        assertThat(m.problem(Field.URI)).contains("qemu:///system");
    }

    @Test
    void aWrongTokenIsReportedOnTheSecretFieldUntilTheSecretIsChanged() {
        AddConnectionViewModel m = model(Optional.empty());
        fillProxmox(m, "00000000-0000-0000-0000-000000000000");
        m.testConnection();
        assertThat(m.fingerprintProperty().get()).isEqualTo(sim.certificateFingerprint());
        assertThat(m.problem(Field.TOKEN_SECRET)).as("first the certificate").isNull();
        m.trustFingerprintProperty().set(true);
        m.testConnection();
        assertThat(m.testPassedProperty().get()).isFalse();
        assertThat(m.problem(Field.TOKEN_SECRET)).contains("refused the API token");
        assertThat(m.problem(Field.TOKEN_ID)).isNull();
        m.tokenSecretProperty().set(secret());
        assertThat(m.problem(Field.TOKEN_SECRET)).isNull();
        m.testConnection();
        assertThat(m.testPassedProperty().get()).isTrue();
        assertThat(m.testResultProperty().get()).startsWith("Proxmox VE 8.4.1 · 3 nodes · 5 VMs")
                .contains("Every privilege GPUForge uses is granted.");
    }

    @Test
    void aTokenWithoutMappingModifyIsReportedWithWhatItTakesAway() {
        sim.cluster().withhold(PveSimulator.TOKEN_ID, "Mapping.Modify");
        AddConnectionViewModel m = model(Optional.empty());
        fillProxmox(m, secret());
        m.testConnection();
        m.trustFingerprintProperty().set(true);
        m.testConnection();
        assertThat(m.testPassedProperty().get()).isTrue();
        assertThat(m.testResultProperty().get()).contains("Missing 1 privilege")
                .contains("Mapping.Modify on /mapping/pci: create PCI resource mappings for GPUs");
    }

    @Test
    void anAccountWithASecondFactorShowsTheCodeFieldWhenAsked() {
        AddConnectionViewModel m = model(Optional.empty());
        m.kindProperty().set(AddConnectionViewModel.Kind.PROXMOX);
        m.nameProperty().set("ops");
        m.pveUrlProperty().set(sim.url());
        m.pveAuthProperty().set(ConnectionForm.PveAuth.PASSWORD);
        m.pveUserProperty().set("ops");
        m.realmProperty().set("pve");
        m.pvePasswordProperty().set(sim.password());
        m.testConnection();
        m.trustFingerprintProperty().set(true);
        assertThat(m.asksOneTimeCodeProperty().get()).isFalse();
        m.testConnection();
        assertThat(m.asksOneTimeCodeProperty().get()).isTrue();
        assertThat(m.problem(Field.ONE_TIME_CODE)).contains("second factor");
        assertThat(m.validProperty().get()).as("the code is needed now").isFalse();
        m.oneTimeCodeProperty().set(PveSimulator.TOTP_CODE);
        m.testConnection();
        assertThat(m.testPassedProperty().get()).as(m.testResultProperty().get()).isTrue();
        assertThat(m.testResultProperty().get()).contains("Mapping.Modify");
    }

    @Test
    void editingKeepsTheStoredSecretWhenItsFieldIsLeftEmpty() throws Exception {
        ConnectionInfo saved = app.connections().addProxmox("lab-pve", sim.url(), PveSimulator.TOKEN_ID,
                secret().toCharArray(), Optional.of(sim.certificateFingerprint()));
        AddConnectionViewModel m = model(Optional.of(saved));
        assertThat(m.kindProperty().get()).isEqualTo(AddConnectionViewModel.Kind.PROXMOX);
        assertThat(m.pveUrlProperty().get()).isEqualTo(sim.url());
        assertThat(m.trustFingerprintProperty().get()).isTrue();
        assertThat(m.problem(Field.TOKEN_SECRET)).isNull();
        m.testConnection();
        assertThat(m.testPassedProperty().get()).as(m.testResultProperty().get()).isTrue();
        m.nameProperty().set("lab-pve-2");
        AtomicReference<ConnectionInfo> done = new AtomicReference<>();
        m.save(done::set);
        assertThat(m.errorProperty().get()).isNull();
        assertThat(done.get().name()).isEqualTo("lab-pve-2");
        assertThat(done.get().id()).isEqualTo(saved.id());
        assertThat(app.connections().secret(done.get()).map(String::new)).contains(secret());
    }

    @Test
    void anSshHostWithAKeyFileIsSavedWithItsChoicesAndItsKeptPassphrase() throws Exception {
        Path key = Files.writeString(dir.resolve("id_lab"), "-----BEGIN OPENSSH PRIVATE KEY-----\n-----END OPENSSH PRIVATE KEY-----\n");
        AddConnectionViewModel m = model(Optional.empty());
        m.nameProperty().set("lab");
        m.targetProperty().set("gpu@10.0.0.5");
        m.sshAuthProperty().set(ConnectionForm.SshAuth.KEY_FILE);
        m.identityFileProperty().set(key.toString());
        m.sudoProperty().set(true);
        m.passphraseProperty().set("key pass");
        m.keepPassphraseProperty().set(true);
        AtomicReference<ConnectionInfo> done = new AtomicReference<>();
        m.save(done::set);
        assertThat(m.errorProperty().get()).isNull();
        ConnectionInfo c = done.get();
        assertThat(c.options().identityFile()).contains(key.toString());
        assertThat(c.options().sudo()).isTrue();
        assertThat(c.options().sshAgent()).isFalse();
        assertThat(app.connections().passphrase(c).map(String::new)).contains("key pass");
        assertThat(m.passphraseProperty().get()).as("typed secrets do not stay in the form").isEmpty();
    }

    @Test
    void aSaveRefusedByTheServiceLeavesTheReasonAndTheFormOpen() throws Exception {
        app.connections().addDemo("Demo lab");
        AddConnectionViewModel m = model(Optional.empty());
        m.kindProperty().set(AddConnectionViewModel.Kind.DEMO);
        m.nameProperty().set("Demo lab");
        AtomicReference<ConnectionInfo> done = new AtomicReference<>();
        m.save(done::set);
        assertThat(done.get()).isNull();
        assertThat(m.errorProperty().get()).contains("exists already");
    }
}
