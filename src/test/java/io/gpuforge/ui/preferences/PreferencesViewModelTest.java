package io.gpuforge.ui.preferences;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.app.connections.SecretsService;
import io.gpuforge.app.settings.KnownHostsFile;
import io.gpuforge.app.settings.LanguageChoice;
import io.gpuforge.app.settings.SettingsStore;
import io.gpuforge.app.settings.ThemeChoice;
import io.gpuforge.store.secret.VaultSecretStore;
import io.gpuforge.ui.common.BackgroundTasks;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PreferencesViewModelTest {

    @TempDir
    Path dir;

    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
    private SettingsStore settings;
    private VaultSecretStore vault;
    private PreferencesViewModel vm;

    @BeforeEach
    void setUp() {
        settings = new SettingsStore(dir.resolve("settings.json"), scheduler, Duration.ofMillis(10));
        vault = new VaultSecretStore(dir.resolve("secrets.vault"), 2000);
        vm = new PreferencesViewModel(settings, new SecretsService(Optional.empty(), vault), BackgroundTasks.sameThread());
    }

    @AfterEach
    void tearDown() {
        scheduler.shutdownNow();
    }

    @Test
    void pickingAThemeOrLanguageChangesTheSettings() {
        vm.themeProperty().set(ThemeChoice.DARK);
        vm.languageProperty().set(LanguageChoice.CHINESE_SIMPLIFIED);
        assertThat(settings.current().theme()).isEqualTo(ThemeChoice.DARK);
        assertThat(settings.current().language()).isEqualTo(LanguageChoice.CHINESE_SIMPLIFIED);
    }

    /** What gpuforge serve reads for its Prometheus endpoint when it is not given --prometheus. */
    @Test
    void thePrometheusAddressIsSavedOnlyWhenItIsHostAndPort() {
        assertThat(settings.current().prometheusListen()).as("off by default").isNull();
        vm.prometheusListenProperty().set("gpu-server 9835");
        assertThat(vm.savePrometheus()).contains("prefs.prometheus.invalid");
        assertThat(settings.current().prometheusListen()).isNull();
        vm.prometheusListenProperty().set(" 0.0.0.0:9835 ");
        vm.prometheusWebConfigProperty().set("/etc/gpuforge/web.yml");
        assertThat(vm.savePrometheus()).isEmpty();
        assertThat(settings.current().prometheusListen()).isEqualTo("0.0.0.0:9835");
        assertThat(settings.current().prometheusWebConfig()).isEqualTo("/etc/gpuforge/web.yml");
        vm.prometheusListenProperty().set("9835");
        assertThat(vm.savePrometheus()).isEmpty();
        assertThat(settings.current().prometheusListen()).as("a bare port is on loopback").isEqualTo("127.0.0.1:9835");
        vm.prometheusListenProperty().set("");
        assertThat(vm.savePrometheus()).isEmpty();
        assertThat(settings.current().prometheusListen()).as("emptied: off again").isNull();
    }

    /** A bearer token bound for plain http to another computer is saved with a warning naming the host. */
    @Test
    void aTokenForPlainHttpOffThisComputerIsSavedWithAWarning() throws Exception {
        vm.setUpVault("long enough".toCharArray(), "long enough".toCharArray());
        vm.alertWebhookProperty().set("http://ntfy.lab.example/gpus");
        vm.saveWebhook("t0ken".toCharArray());
        assertThat(vm.webhookMessageProperty().get()).isEqualTo("prefs.webhook.savedTokenInClear");
        assertThat(vm.webhookDetailProperty().get()).isEqualTo("ntfy.lab.example");
        // the URL changed later, the token kept: still said
        vm.alertWebhookProperty().set("http://alerts.lab.example/gpus");
        vm.saveWebhook(new char[0]);
        assertThat(vm.webhookMessageProperty().get()).isEqualTo("prefs.webhook.savedTokenInClear");
        assertThat(vm.webhookDetailProperty().get()).isEqualTo("alerts.lab.example");
        // https, or http on this computer: no warning
        vm.alertWebhookProperty().set("https://ntfy.lab.example/gpus");
        vm.saveWebhook("t0ken".toCharArray());
        assertThat(vm.webhookMessageProperty().get()).isEqualTo("prefs.webhook.savedToken");
        vm.alertWebhookProperty().set("http://127.0.0.1:8080/gpus");
        vm.saveWebhook(new char[0]);
        assertThat(vm.webhookMessageProperty().get()).isEqualTo("prefs.webhook.saved");
    }

    /** The alert webhook as Preferences sets it: URL in the settings, token in the vault, a test post received. */
    @Test
    void theWebhookIsSavedWithItsTokenInTheVaultAndTested() throws Exception {
        try (io.gpuforge.testing.WebhookReceiver receiver = new io.gpuforge.testing.WebhookReceiver()) {
            io.gpuforge.app.monitor.AlertWebhook poster = new io.gpuforge.app.monitor.AlertWebhook(Optional::empty,
                    () -> vault.get(io.gpuforge.app.monitor.AlertWebhook.TOKEN_KEY), scheduler,
                    java.time.Clock.systemUTC(), "lab-host");
            vm = new PreferencesViewModel(settings, new SecretsService(Optional.empty(), vault),
                    BackgroundTasks.sameThread(), poster::test);
            vm.alertWebhookProperty().set("ntfy.example.org/gpus");
            vm.saveWebhook("t0ken".toCharArray());
            assertThat(vm.webhookMessageProperty().get()).isEqualTo("prefs.webhook.invalid");
            assertThat(settings.current().alertWebhook()).isNull();

            vm.alertWebhookProperty().set(receiver.url("/gpus"));
            vm.saveWebhook("t0ken".toCharArray());
            assertThat(vm.webhookMessageProperty().get()).as("no vault yet: the URL only")
                    .isEqualTo("prefs.webhook.noStore");
            assertThat(settings.current().alertWebhook()).isEqualTo(receiver.url("/gpus"));
            vm.setUpVault("long enough".toCharArray(), "long enough".toCharArray());
            vm.saveWebhook("t0ken".toCharArray());
            assertThat(vm.webhookMessageProperty().get()).isEqualTo("prefs.webhook.savedToken");
            assertThat(new String(vault.get(io.gpuforge.app.monitor.AlertWebhook.TOKEN_KEY).orElseThrow()))
                    .isEqualTo("t0ken");

            vm.testWebhook();
            assertThat(vm.webhookMessageProperty().get()).isEqualTo("prefs.webhook.tested");
            assertThat(vm.webhookDetailProperty().get()).contains("HTTP 200");
            assertThat(receiver.posts()).singleElement().satisfies(p -> {
                assertThat(p.authorization()).isEqualTo("Bearer t0ken");
                assertThat(p.body()).contains("a test of the alert webhook");
            });

            vm.alertWebhookProperty().set(" ");
            vm.saveWebhook(new char[0]);
            assertThat(vm.webhookMessageProperty().get()).isEqualTo("prefs.webhook.off");
            assertThat(settings.current().alertWebhook()).isNull();
            assertThat(vault.get(io.gpuforge.app.monitor.AlertWebhook.TOKEN_KEY)).as("the token goes too").isEmpty();
            vm.testWebhook();
            assertThat(vm.webhookMessageProperty().get()).isEqualTo("prefs.webhook.none");
        }
    }

    @Test
    void newHostKeysGoToOpenSshsFileUntilTheUserPicksGpuForgesOwn() {
        assertThat(vm.newHostKeysProperty().get()).isEqualTo(KnownHostsFile.OPENSSH);
        vm.newHostKeysProperty().set(KnownHostsFile.GPUFORGE);
        assertThat(settings.current().newHostKeys()).isEqualTo(KnownHostsFile.GPUFORGE);
        PreferencesViewModel reopened = new PreferencesViewModel(settings,
                new SecretsService(Optional.empty(), vault), BackgroundTasks.sameThread());
        assertThat(reopened.newHostKeysProperty().get()).isEqualTo(KnownHostsFile.GPUFORGE);
    }

    @Test
    void mismatchedOrShortPassphrasesCreateNothing() {
        vm.setUpVault("long enough 1".toCharArray(), "long enough 2".toCharArray());
        assertThat(vm.secretsMessageProperty().get()).isEqualTo("prefs.secrets.mismatch");
        vm.setUpVault("short".toCharArray(), "short".toCharArray());
        assertThat(vm.secretsMessageProperty().get()).isEqualTo("prefs.secrets.tooShort");
        assertThat(vault.exists()).isFalse();
        assertThat(vm.secretsStateProperty().get()).isEqualTo(SecretsService.State.VAULT_NOT_SET_UP);
    }

    @Test
    void setUpLockAndUnlockTheVault() {
        vm.setUpVault("long enough".toCharArray(), "long enough".toCharArray());
        assertThat(vm.secretsStateProperty().get()).isEqualTo(SecretsService.State.VAULT_UNLOCKED);
        vm.lockVault();
        assertThat(vm.secretsStateProperty().get()).isEqualTo(SecretsService.State.VAULT_LOCKED);
        vm.unlockVault("wrong passphrase".toCharArray());
        assertThat(vm.secretsMessageProperty().get()).isEqualTo("prefs.secrets.failed");
        assertThat(vm.secretsStateProperty().get()).isEqualTo(SecretsService.State.VAULT_LOCKED);
        vm.unlockVault("long enough".toCharArray());
        assertThat(vm.secretsStateProperty().get()).isEqualTo(SecretsService.State.VAULT_UNLOCKED);
        assertThat(vm.busyProperty().get()).isFalse();
    }
}
