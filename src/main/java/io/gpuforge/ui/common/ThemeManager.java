package io.gpuforge.ui.common;

import atlantafx.base.theme.PrimerDark;
import atlantafx.base.theme.PrimerLight;
import io.gpuforge.app.settings.ThemeChoice;
import java.util.Objects;
import java.util.Optional;
import javafx.application.Application;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.scene.Scene;

/**
 * Applies the AtlantaFX Primer theme (light or dark) plus GPUForge's own stylesheet. "System" follows the
 * OS preference read at start-up, falling back to light when the OS does not say. One instance, owned by
 * the composition root (not AtlantaFX's static manager).
 */
public final class ThemeManager {

    public static final String APP_CSS = "/css/gpuforge.css";

    private final Optional<Boolean> osPrefersDark;
    private final ReadOnlyBooleanWrapper dark = new ReadOnlyBooleanWrapper();
    private final String appCss;

    public ThemeManager(Optional<Boolean> osPrefersDark) {
        this.osPrefersDark = Objects.requireNonNull(osPrefersDark);
        this.appCss = Objects.requireNonNull(ThemeManager.class.getResource(APP_CSS), APP_CSS).toExternalForm();
    }

    public boolean resolveDark(ThemeChoice choice) {
        switch (choice) {
            case DARK:
                return true;
            case LIGHT:
                return false;
            default:
                return osPrefersDark.orElse(false);
        }
    }

    /** Sets the user-agent stylesheet for every window; call on the FX thread. */
    public void apply(ThemeChoice choice) {
        boolean d = resolveDark(choice);
        Application.setUserAgentStylesheet(d ? new PrimerDark().getUserAgentStylesheet()
                : new PrimerLight().getUserAgentStylesheet());
        dark.set(d);
    }

    /** Adds the application stylesheet to a scene (main window, dialogs). */
    public void style(Scene scene) {
        if (!scene.getStylesheets().contains(appCss)) {
            scene.getStylesheets().add(appCss);
        }
    }

    public ReadOnlyBooleanProperty darkProperty() {
        return dark.getReadOnlyProperty();
    }

    public boolean isDark() {
        return dark.get();
    }
}
