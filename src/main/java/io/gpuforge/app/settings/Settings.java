package io.gpuforge.app.settings;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.gpuforge.store.TelemetryStore;
import io.gpuforge.telemetry.Sampler;
import java.time.Duration;

/**
 * User preferences, stored as JSON in the per-user config directory. Immutable: change with the
 * {@code with…} methods and hand the result to {@link SettingsStore#update}. No secrets here, ever.
 * Values the user has not set come from the {@link SettingsDefaults} of the installation.
 *
 * @param newHostKeys        where accepted SSH host keys are written (both files are always read)
 * @param welcomeDismissed   the user asked not to see the welcome page at start
 * @param samplerIntervalMillis GPU sampling interval (200..10,000 ms); null: {@link Sampler#DEFAULT_INTERVAL}
 * @param rawRetentionHours  how long raw GPU samples are kept (at least 1 h); null: the store's default
 * @param rollupRetentionDays how long per-minute rollups are kept (at least as long as raw samples)
 * @param prometheusListen   where {@code gpuforge serve} serves Prometheus metrics ({@code HOST:PORT}); null: off
 * @param prometheusWebConfig the exporters' web configuration file it uses (TLS, basic auth); null: none
 * @param alertWebhook       where fired and cleared alerts are posted as JSON (http or https URL; its bearer token, if
 *                           any, is in the secret store); null: off
 */
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Settings(int version, ThemeChoice theme, LanguageChoice language, WindowBounds window,
                       Double navigationDivider, KnownHostsFile newHostKeys, Boolean welcomeDismissed,
                       Integer samplerIntervalMillis, Integer rawRetentionHours, Integer rollupRetentionDays,
                       String prometheusListen, String prometheusWebConfig, String alertWebhook) {

    public static final int CURRENT_VERSION = 1;

    public Settings {
        theme = theme == null ? ThemeChoice.SYSTEM : theme;
        language = language == null ? LanguageChoice.SYSTEM : language;
        newHostKeys = newHostKeys == null ? KnownHostsFile.OPENSSH : newHostKeys;
        if (navigationDivider != null && !(navigationDivider > 0.05 && navigationDivider < 0.95)) {
            navigationDivider = null;
        }
        welcomeDismissed = Boolean.TRUE.equals(welcomeDismissed) ? Boolean.TRUE : null;
        if (samplerIntervalMillis != null && (samplerIntervalMillis < 200 || samplerIntervalMillis > 10_000)) {
            samplerIntervalMillis = null;
        }
        if (rawRetentionHours != null && rawRetentionHours < 1) {
            rawRetentionHours = null;
        }
        if (rollupRetentionDays != null && rollupRetentionDays < 1) {
            rollupRetentionDays = null;
        }
        if (prometheusListen != null && !validListen(prometheusListen)) {
            prometheusListen = null;
        }
        if (prometheusWebConfig != null && prometheusWebConfig.isBlank()) {
            prometheusWebConfig = null;
        }
        if (alertWebhook != null && !validWebhook(alertWebhook)) {
            alertWebhook = null;
        }
    }

    /** An absolute http or https URL with a host: where an alert's JSON is posted. */
    public static boolean validWebhook(String url) {
        try {
            java.net.URI u = new java.net.URI(url.strip());
            return u.getHost() != null && ("https".equalsIgnoreCase(u.getScheme())
                    || "http".equalsIgnoreCase(u.getScheme()));
        } catch (java.net.URISyntaxException e) {
            return false;
        }
    }

    /** A bare port is on loopback ({@code 9835}: {@code 127.0.0.1:9835}); HOST:PORT as it is; else empty. */
    public static java.util.Optional<String> listenAddress(String s) {
        String v = s == null ? "" : s.strip();
        if (v.matches("\\d{1,5}") && Integer.parseInt(v) <= 65535) {
            return java.util.Optional.of("127.0.0.1:" + v);
        }
        return validListen(v) ? java.util.Optional.of(v) : java.util.Optional.empty();
    }

    /** {@code 127.0.0.1:9835}, {@code [::1]:9835}, {@code 0.0.0.0:9835}: a host and a port from 0 to 65535. */
    public static boolean validListen(String s) {
        int colon = s.lastIndexOf(':');
        return colon > 0 && s.substring(colon + 1).matches("\\d{1,5}") && Integer.parseInt(s.substring(colon + 1))
                <= 65535 && !s.substring(0, colon).isBlank() && !s.contains(" ");
    }

    /** Settings from before the known-hosts choice: new host keys go to OpenSSH's file. */
    public Settings(int version, ThemeChoice theme, LanguageChoice language, WindowBounds window,
                    Double navigationDivider) {
        this(version, theme, language, window, navigationDivider, KnownHostsFile.OPENSSH);
    }

    public Settings(int version, ThemeChoice theme, LanguageChoice language, WindowBounds window,
                    Double navigationDivider, KnownHostsFile newHostKeys) {
        this(version, theme, language, window, navigationDivider, newHostKeys, null, null, null, null, null, null, null);
    }

    public static Settings defaults() {
        return new Settings(CURRENT_VERSION, ThemeChoice.SYSTEM, LanguageChoice.SYSTEM, null, null);
    }

    public Settings withTheme(ThemeChoice t) {
        return new Settings(version, t, language, window, navigationDivider, newHostKeys, welcomeDismissed,
                samplerIntervalMillis, rawRetentionHours, rollupRetentionDays, prometheusListen,
                prometheusWebConfig, alertWebhook);
    }

    public Settings withLanguage(LanguageChoice l) {
        return new Settings(version, theme, l, window, navigationDivider, newHostKeys, welcomeDismissed,
                samplerIntervalMillis, rawRetentionHours, rollupRetentionDays, prometheusListen,
                prometheusWebConfig, alertWebhook);
    }

    public Settings withWindow(WindowBounds w) {
        return new Settings(version, theme, language, w, navigationDivider, newHostKeys, welcomeDismissed,
                samplerIntervalMillis, rawRetentionHours, rollupRetentionDays, prometheusListen,
                prometheusWebConfig, alertWebhook);
    }

    public Settings withNavigationDivider(double d) {
        return new Settings(version, theme, language, window, d, newHostKeys, welcomeDismissed,
                samplerIntervalMillis, rawRetentionHours, rollupRetentionDays, prometheusListen,
                prometheusWebConfig, alertWebhook);
    }

    /** Where accepted SSH host keys are written (both files are always read). */
    public Settings withNewHostKeys(KnownHostsFile f) {
        return new Settings(version, theme, language, window, navigationDivider, f, welcomeDismissed,
                samplerIntervalMillis, rawRetentionHours, rollupRetentionDays, prometheusListen,
                prometheusWebConfig, alertWebhook);
    }

    public Settings withWelcomeDismissed(boolean dismissed) {
        return new Settings(version, theme, language, window, navigationDivider, newHostKeys, dismissed,
                samplerIntervalMillis, rawRetentionHours, rollupRetentionDays, prometheusListen,
                prometheusWebConfig, alertWebhook);
    }

    public Settings withSamplerIntervalMillis(Integer millis) {
        return new Settings(version, theme, language, window, navigationDivider, newHostKeys, welcomeDismissed,
                millis, rawRetentionHours, rollupRetentionDays, prometheusListen, prometheusWebConfig,
                alertWebhook);
    }

    /** Where {@code gpuforge serve} serves Prometheus metrics (blank: off), and with which web configuration file. */
    public Settings withPrometheus(String listen, String webConfig) {
        return new Settings(version, theme, language, window, navigationDivider, newHostKeys, welcomeDismissed,
                samplerIntervalMillis, rawRetentionHours, rollupRetentionDays, listenAddress(listen).orElse(null),
                webConfig == null || webConfig.isBlank() ? null : webConfig.strip(), alertWebhook);
    }

    /** Where fired and cleared alerts are posted (blank: nowhere). */
    public Settings withAlertWebhook(String url) {
        return new Settings(version, theme, language, window, navigationDivider, newHostKeys, welcomeDismissed,
                samplerIntervalMillis, rawRetentionHours, rollupRetentionDays, prometheusListen, prometheusWebConfig,
                url == null || url.isBlank() ? null : url.strip());
    }

    /** Whether the user asked not to see the welcome page at start. */
    public boolean hidesWelcomeAtStart() {
        return Boolean.TRUE.equals(welcomeDismissed);
    }

    /** The GPU sampling interval to use. */
    @JsonIgnore
    public Duration samplerInterval() {
        return samplerIntervalMillis == null ? Sampler.DEFAULT_INTERVAL : Duration.ofMillis(samplerIntervalMillis);
    }

    /** How long GPU history is kept; a pair that contradicts itself (rollups shorter than raw) falls back. */
    @JsonIgnore
    public TelemetryStore.Retention retention() {
        Duration raw = rawRetentionHours == null ? TelemetryStore.DEFAULT_RAW_RETENTION
                : Duration.ofHours(rawRetentionHours);
        Duration rollups = rollupRetentionDays == null ? TelemetryStore.DEFAULT_ROLLUP_RETENTION
                : Duration.ofDays(rollupRetentionDays);
        return rollups.compareTo(raw) < 0 ? TelemetryStore.Retention.defaults() : new TelemetryStore.Retention(raw, rollups);
    }
}
