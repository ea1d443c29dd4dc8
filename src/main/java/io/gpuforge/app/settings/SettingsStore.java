package io.gpuforge.app.settings;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gpuforge.store.AtomicFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Holds the current {@link Settings} and writes them to disk: debounced (many changes in a burst,
 * such as dragging the window, make one write) and atomic (temp file in the same directory, then rename),
 * so a crash never leaves a half-written file. A file that cannot be read is kept aside as
 * {@code settings.json.broken} and defaults are used. What the user has not set comes from the installation's
 * {@link SettingsDefaults}; only the user's own choices are written.
 */
public final class SettingsStore implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(SettingsStore.class);
    public static final Duration DEFAULT_DEBOUNCE = Duration.ofMillis(500);

    private final Path file;
    private final ScheduledExecutorService scheduler;
    private final Duration debounce;
    private final SettingsDefaults defaults;
    private final ObjectMapper mapper = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    private final List<Consumer<Settings>> listeners = new CopyOnWriteArrayList<>();
    private final Object lock = new Object();
    private Settings current;
    private ScheduledFuture<?> pendingSave;
    private int writes;

    public SettingsStore(Path file, ScheduledExecutorService scheduler, Duration debounce) {
        this(file, SettingsDefaults.none(), scheduler, debounce);
    }

    public SettingsStore(Path file, SettingsDefaults defaults, ScheduledExecutorService scheduler, Duration debounce) {
        this.file = Objects.requireNonNull(file);
        this.defaults = Objects.requireNonNull(defaults);
        this.scheduler = Objects.requireNonNull(scheduler);
        this.debounce = Objects.requireNonNull(debounce);
        this.current = load();
    }

    /** The installation's defaults alone, without any user file. */
    private Settings installDefaults() {
        if (defaults.isEmpty()) {
            return Settings.defaults();
        }
        try {
            return mapper.treeToValue(defaults.under(mapper.createObjectNode()), Settings.class);
        } catch (JsonProcessingException | IllegalArgumentException e) {
            LOG.warn("The installation's settings defaults do not fit ({}); the built-in defaults are used",
                    e.getMessage());
            return Settings.defaults();
        }
    }

    private Settings load() {
        if (!Files.exists(file)) {
            return installDefaults();
        }
        try {
            JsonNode user = mapper.readTree(file.toFile());
            if (!(user instanceof ObjectNode)) {
                throw new IOException("not a JSON object");
            }
            Settings s = mapper.treeToValue(defaults.under((ObjectNode) user), Settings.class);
            return s == null ? installDefaults() : s;
        } catch (IOException | RuntimeException e) {
            Path aside = file.resolveSibling(file.getFileName() + ".broken");
            LOG.warn("Settings file {} is unreadable ({}); using defaults, kept the old file as {}",
                    file, e.getMessage(), aside);
            try {
                Files.move(file, aside, StandardCopyOption.REPLACE_EXISTING);
            } catch (IOException moveError) {
                LOG.warn("Could not move the unreadable settings file aside", moveError);
            }
            return installDefaults();
        }
    }

    public Settings current() {
        synchronized (lock) {
            return current;
        }
    }

    /** Applies a change, notifies listeners on the caller's thread, and schedules a debounced save. */
    public Settings update(UnaryOperator<Settings> change) {
        Settings next;
        synchronized (lock) {
            next = Objects.requireNonNull(change.apply(current));
            if (next.equals(current)) {
                return current;
            }
            current = next;
            if (pendingSave != null) {
                pendingSave.cancel(false);
            }
            try {
                pendingSave = scheduler.schedule(this::saveQuietly, debounce.toMillis(), TimeUnit.MILLISECONDS);
            } catch (RejectedExecutionException shuttingDown) {
                // the application is closing: write now rather than lose the change
                pendingSave = null;
                saveNow();
            }
        }
        listeners.forEach(l -> l.accept(next));
        return next;
    }

    public void addListener(Consumer<Settings> listener) {
        listeners.add(listener);
    }

    public void removeListener(Consumer<Settings> listener) {
        listeners.remove(listener);
    }

    /** How many times the file was written; lets tests see the debounce. */
    public int writeCount() {
        synchronized (lock) {
            return writes;
        }
    }

    private void saveNow() {
        writes++;
        try {
            write(current);
        } catch (IOException e) {
            LOG.error("Could not save settings to {}", file, e);
        }
    }

    private void saveQuietly() {
        try {
            flush();
        } catch (IOException e) {
            LOG.error("Could not save settings to {}", file, e);
        }
    }

    /** Writes now if a save is pending (used on exit). */
    public void flush() throws IOException {
        Settings toWrite;
        synchronized (lock) {
            if (pendingSave != null) {
                pendingSave.cancel(false);
                pendingSave = null;
            }
            toWrite = current;
            writes++;
            write(toWrite);
        }
    }

    private void write(Settings s) throws IOException {
        byte[] json;
        try {
            ObjectNode full = mapper.valueToTree(s);
            json = mapper.writeValueAsBytes(defaults.onlyOwn(full, mapper.valueToTree(Settings.defaults())));
        } catch (JsonProcessingException e) {
            throw new IOException("Settings could not be serialised", e);
        }
        AtomicFiles.write(file, json, false);
    }

    @Override
    public void close() throws IOException {
        boolean dirty;
        synchronized (lock) {
            dirty = pendingSave != null;
        }
        if (dirty) {
            flush();
        }
    }
}
