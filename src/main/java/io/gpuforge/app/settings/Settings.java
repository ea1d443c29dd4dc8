package io.gpuforge.app.settings;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * User preferences, stored as JSON in the per-user config directory. Immutable: change with the
 * {@code with…} methods and hand the result to {@link SettingsStore#update}. No secrets here, ever.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Settings(int version, ThemeChoice theme, LanguageChoice language, WindowBounds window,
                       Double navigationDivider, KnownHostsFile newHostKeys) {

    public static final int CURRENT_VERSION = 1;

    public Settings {
        theme = theme == null ? ThemeChoice.SYSTEM : theme;
        language = language == null ? LanguageChoice.SYSTEM : language;
        newHostKeys = newHostKeys == null ? KnownHostsFile.OPENSSH : newHostKeys;
        if (navigationDivider != null && !(navigationDivider > 0.05 && navigationDivider < 0.95)) {
            navigationDivider = null;
        }
    }

    /** Settings from before the known-hosts choice: new host keys go to OpenSSH's file. */
    public Settings(int version, ThemeChoice theme, LanguageChoice language, WindowBounds window,
                    Double navigationDivider) {
        this(version, theme, language, window, navigationDivider, KnownHostsFile.OPENSSH);
    }

    public static Settings defaults() {
        return new Settings(CURRENT_VERSION, ThemeChoice.SYSTEM, LanguageChoice.SYSTEM, null, null);
    }

    public Settings withTheme(ThemeChoice t) {
        return new Settings(version, t, language, window, navigationDivider, newHostKeys);
    }

    public Settings withLanguage(LanguageChoice l) {
        return new Settings(version, theme, l, window, navigationDivider, newHostKeys);
    }

    public Settings withWindow(WindowBounds w) {
        return new Settings(version, theme, language, w, navigationDivider, newHostKeys);
    }

    public Settings withNavigationDivider(double d) {
        return new Settings(version, theme, language, window, d, newHostKeys);
    }

    /** Where accepted SSH host keys are written (both files are always read). */
    public Settings withNewHostKeys(KnownHostsFile f) {
        return new Settings(version, theme, language, window, navigationDivider, f);
    }
}
