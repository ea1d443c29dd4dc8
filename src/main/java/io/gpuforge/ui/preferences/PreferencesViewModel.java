package io.gpuforge.ui.preferences;

import io.gpuforge.app.connections.SecretsService;
import io.gpuforge.app.settings.LanguageChoice;
import io.gpuforge.app.settings.SettingsStore;
import io.gpuforge.app.settings.KnownHostsFile;
import io.gpuforge.app.settings.ThemeChoice;
import io.gpuforge.ui.common.BackgroundTasks;
import java.util.Arrays;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleObjectProperty;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Preferences: theme and language take effect as soon as they are picked (and are saved); the secret
 * store section sets up, unlocks and locks the vault. Messages are bundle keys; the view localises them.
 */
public final class PreferencesViewModel {

    private static final Logger LOG = LoggerFactory.getLogger(PreferencesViewModel.class);

    private final ObjectProperty<ThemeChoice> theme = new SimpleObjectProperty<>();
    private final ObjectProperty<LanguageChoice> language = new SimpleObjectProperty<>();
    private final ObjectProperty<KnownHostsFile> newHostKeys = new SimpleObjectProperty<>();
    private final ReadOnlyObjectWrapper<SecretsService.State> secretsState = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyStringWrapper secretsMessage = new ReadOnlyStringWrapper();
    private final ReadOnlyBooleanWrapper busy = new ReadOnlyBooleanWrapper();
    private final SecretsService secrets;
    private final javafx.beans.property.StringProperty prometheusListen = new javafx.beans.property.SimpleStringProperty("");
    private final javafx.beans.property.StringProperty prometheusWebConfig =
            new javafx.beans.property.SimpleStringProperty("");
    private SettingsStore settings;
    private final BackgroundTasks tasks;

    /** Posts a test message to a webhook and says how the receiver answered (AlertWebhook#test). */
    @FunctionalInterface
    public interface WebhookTester {
        String test(String url) throws Exception;
    }

    private final javafx.beans.property.StringProperty alertWebhook = new javafx.beans.property.SimpleStringProperty("");
    private final ReadOnlyStringWrapper webhookMessage = new ReadOnlyStringWrapper();
    private final ReadOnlyStringWrapper webhookDetail = new ReadOnlyStringWrapper("");
    private final WebhookTester webhookTester;

    public PreferencesViewModel(SettingsStore settings, SecretsService secrets, BackgroundTasks tasks) {
        this(settings, secrets, tasks, url -> {
            throw new java.io.IOException("no webhook here");
        });
    }

    public PreferencesViewModel(SettingsStore settings, SecretsService secrets, BackgroundTasks tasks,
                                WebhookTester webhookTester) {
        this.webhookTester = webhookTester;
        this.secrets = secrets;
        this.tasks = tasks;
        theme.set(settings.current().theme());
        language.set(settings.current().language());
        theme.addListener((o, old, now) -> {
            if (now != null) {
                settings.update(s -> s.withTheme(now));
            }
        });
        language.addListener((o, old, now) -> {
            if (now != null) {
                settings.update(s -> s.withLanguage(now));
            }
        });
        newHostKeys.set(settings.current().newHostKeys());
        newHostKeys.addListener((o, old, now) -> {
            if (now != null) {
                settings.update(s -> s.withNewHostKeys(now));
            }
        });
        secretsState.set(secrets.state());
        this.settings = settings;
        prometheusListen.set(settings.current().prometheusListen() == null ? ""
                : settings.current().prometheusListen());
        prometheusWebConfig.set(settings.current().prometheusWebConfig() == null ? ""
                : settings.current().prometheusWebConfig());
        alertWebhook.set(settings.current().alertWebhook() == null ? "" : settings.current().alertWebhook());
    }

    /** Where alerts are posted; blank for nowhere. */
    public javafx.beans.property.StringProperty alertWebhookProperty() {
        return alertWebhook;
    }

    /** Bundle key of the last webhook action's outcome, or null; {@link #webhookDetailProperty} its argument. */
    public ReadOnlyStringProperty webhookMessageProperty() {
        return webhookMessage.getReadOnlyProperty();
    }

    public ReadOnlyStringProperty webhookDetailProperty() {
        return webhookDetail.getReadOnlyProperty();
    }

    /**
     * Saves the webhook's URL (blank: off, and its token is forgotten) and, when one was typed, its bearer token in
     * the secret store (which must be ready: the keyring, or the vault set up and unlocked). The array is wiped.
     */
    public void saveWebhook(char[] token) {
        String url = alertWebhook.get() == null ? "" : alertWebhook.get().strip();
        webhookDetail.set("");
        if (!url.isEmpty() && !io.gpuforge.app.settings.Settings.validWebhook(url)) {
            Arrays.fill(token, '\0');
            webhookMessage.set("prefs.webhook.invalid");
            return;
        }
        settings.update(st -> st.withAlertWebhook(url));
        boolean storeReady = secrets.state() == SecretsService.State.KEYRING
                || secrets.state() == SecretsService.State.VAULT_UNLOCKED;
        if (url.isEmpty()) {
            Arrays.fill(token, '\0');
            webhookMessage.set("prefs.webhook.off");
            if (storeReady) {
                tasks.supply("webhook token", () -> {
                    secrets.delete(io.gpuforge.app.monitor.AlertWebhook.TOKEN_KEY);
                    return Boolean.TRUE;
                }).start();
            }
            return;
        }
        boolean inClear = io.gpuforge.app.monitor.AlertWebhook.tokenInClear(url).isPresent();
        if (token.length == 0) {
            webhookMessage.set("prefs.webhook.saved");
            if (inClear && storeReady) {
                // a token saved before goes with every post to this URL: in clear
                tasks.supply("webhook token", () -> secrets.has(io.gpuforge.app.monitor.AlertWebhook.TOKEN_KEY))
                        .onSuccess(has -> {
                            if (has) {
                                webhookDetail.set(hostOf(url));
                                webhookMessage.set("prefs.webhook.savedTokenInClear");
                            }
                        }).start();
            }
            return;
        }
        if (!storeReady) {
            Arrays.fill(token, '\0');
            webhookMessage.set("prefs.webhook.noStore");
            return;
        }
        tasks.supply("webhook token", () -> {
            try {
                secrets.put(io.gpuforge.app.monitor.AlertWebhook.TOKEN_KEY, token);
            } finally {
                Arrays.fill(token, '\0');
            }
            return Boolean.TRUE;
        }).onSuccess(ok -> {
            webhookDetail.set(inClear ? hostOf(url) : "");
            webhookMessage.set(inClear ? "prefs.webhook.savedTokenInClear" : "prefs.webhook.savedToken");
        })
                .onError(t -> {
                    webhookDetail.set(t.getMessage() == null ? t.toString() : t.getMessage());
                    webhookMessage.set("prefs.webhook.testFailed");
                })
                .start();
    }

    private static String hostOf(String url) {
        try {
            String h = java.net.URI.create(url).getHost();
            return h == null ? url : h;
        } catch (IllegalArgumentException e) {
            return url;
        }
    }

    /** Posts a test message to the saved webhook (in the background) and says how it went. */
    public void testWebhook() {
        String url = settings.current().alertWebhook();
        if (url == null) {
            webhookDetail.set("");
            webhookMessage.set("prefs.webhook.none");
            return;
        }
        busy.set(true);
        tasks.supply("webhook test", () -> webhookTester.test(url))
                .onSuccess(answer -> {
                    webhookDetail.set(answer);
                    webhookMessage.set("prefs.webhook.tested");
                })
                .onError(t -> {
                    webhookDetail.set(t.getMessage() == null ? t.toString() : t.getMessage());
                    webhookMessage.set("prefs.webhook.testFailed");
                })
                .andFinally(() -> busy.set(false))
                .start();
    }

    /** The Prometheus endpoint of gpuforge serve: {@code HOST:PORT}, blank for off. */
    public javafx.beans.property.StringProperty prometheusListenProperty() {
        return prometheusListen;
    }

    /** The web configuration file (TLS, basic auth) gpuforge serve's endpoint uses; blank for none. */
    public javafx.beans.property.StringProperty prometheusWebConfigProperty() {
        return prometheusWebConfig;
    }

    /**
     * Saves the endpoint's address and web configuration file; returns the bundle key of why not (an address that is
     * not HOST:PORT) or empty when saved.
     */
    public java.util.Optional<String> savePrometheus() {
        String listen = prometheusListen.get() == null ? "" : prometheusListen.get().strip();
        if (!listen.isEmpty() && io.gpuforge.app.settings.Settings.listenAddress(listen).isEmpty()) {
            return java.util.Optional.of("prefs.prometheus.invalid");
        }
        settings.update(st -> st.withPrometheus(listen, prometheusWebConfig.get()));
        return java.util.Optional.empty();
    }

    /** Where a host key accepted from now on is written (both files are always read). */
    public ObjectProperty<KnownHostsFile> newHostKeysProperty() {
        return newHostKeys;
    }

    public ObjectProperty<ThemeChoice> themeProperty() {
        return theme;
    }

    public ObjectProperty<LanguageChoice> languageProperty() {
        return language;
    }

    public ReadOnlyObjectProperty<SecretsService.State> secretsStateProperty() {
        return secretsState.getReadOnlyProperty();
    }

    /** Bundle key of the last outcome of a vault action, or null. */
    public ReadOnlyStringProperty secretsMessageProperty() {
        return secretsMessage.getReadOnlyProperty();
    }

    public ReadOnlyBooleanProperty busyProperty() {
        return busy.getReadOnlyProperty();
    }

    public String secretBackendName() {
        return secrets.backendName();
    }

    /** Creates the vault; both arrays are wiped. */
    public void setUpVault(char[] passphrase, char[] confirmation) {
        boolean same = Arrays.equals(passphrase, confirmation);
        Arrays.fill(confirmation, '\0');
        if (!same) {
            Arrays.fill(passphrase, '\0');
            secretsMessage.set("prefs.secrets.mismatch");
            return;
        }
        if (passphrase.length < 8) {
            Arrays.fill(passphrase, '\0');
            secretsMessage.set("prefs.secrets.tooShort");
            return;
        }
        run(() -> secrets.createVault(passphrase), () -> "prefs.secrets.created");
    }

    public void unlockVault(char[] passphrase) {
        run(() -> secrets.unlockVault(passphrase), this::unlocked);
    }

    /** The success message: unlocked, or unlocked but older than the vault last written here (a copy put back). */
    private String unlocked() {
        return secrets.vaultRolledBack().isPresent() ? "prefs.secrets.rolledBack" : "prefs.secrets.unlocked";
    }

    public void lockVault() {
        secrets.lockVault();
        secretsState.set(secrets.state());
        secretsMessage.set("prefs.secrets.locked");
    }

    private interface VaultAction {
        void run() throws Exception;
    }

    /** Runs a vault action off the FX thread; {@code success}: its message's key, asked once it has succeeded. */
    private void run(VaultAction action, java.util.function.Supplier<String> success) {
        busy.set(true);
        tasks.supply("vault", () -> {
            action.run();
            return Boolean.TRUE;
        }).onSuccess(ok -> secretsMessage.set(success.get()))
                .onError(t -> {
                    LOG.warn("Vault action failed: {}", t.getMessage());
                    secretsMessage.set("prefs.secrets.failed");
                })
                .andFinally(() -> {
                    busy.set(false);
                    secretsState.set(secrets.state());
                })
                .start();
    }
}
