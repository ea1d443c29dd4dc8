package io.gpuforge.app;

import io.gpuforge.app.connections.ConnectionsService;
import io.gpuforge.app.settings.SettingsStore;
import io.gpuforge.store.StoreException;
import java.util.Objects;

/**
 * When the welcome page opens by itself: nothing is configured (no saved connection) and the user has not asked
 * to stop seeing it; that choice is remembered in the settings. Help → Welcome shows the page at any time.
 */
public final class FirstRun {

    private final SettingsStore settings;
    private final ConnectionsService connections;

    public FirstRun(SettingsStore settings, ConnectionsService connections) {
        this.settings = Objects.requireNonNull(settings);
        this.connections = Objects.requireNonNull(connections);
    }

    /** Whether to open the welcome page at start. Reads the saved connections: call it off the FX thread. */
    public boolean showWelcomeAtStart() throws StoreException {
        return !settings.current().hidesWelcomeAtStart() && connections.all().isEmpty();
    }

    /** Whether the user asked not to see the welcome page at start. */
    public boolean dismissed() {
        return settings.current().hidesWelcomeAtStart();
    }

    /** Remembers (debounced, in the settings file) whether the page opens at start; cheap, any thread. */
    public void setDismissed(boolean dismissed) {
        settings.update(s -> s.withWelcomeDismissed(dismissed));
    }
}
