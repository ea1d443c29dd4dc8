package io.gpuforge.app.monitor;

import io.gpuforge.domain.tasks.AppEvent;
import io.gpuforge.store.EventRepository;
import io.gpuforge.store.StoreException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What GPUForge did and saw, for the events panel and the log file. Events are written to SQLite on the
 * background executor (never on the caller's thread) and handed to listeners, which must hop to their
 * own thread (the UI uses the FX thread).
 */
public final class EventLog {

    private static final Logger LOG = LoggerFactory.getLogger(EventLog.class);

    private final EventRepository repository;
    private final Executor executor;
    private final List<Consumer<AppEvent>> listeners = new CopyOnWriteArrayList<>();

    public EventLog(EventRepository repository, Executor executor) {
        this.repository = repository;
        this.executor = executor;
    }

    public void info(String source, String message) {
        append(AppEvent.of(AppEvent.Level.INFO, source, message));
    }

    public void warn(String source, String message) {
        append(AppEvent.of(AppEvent.Level.WARN, source, message));
    }

    public void error(String source, String message) {
        append(AppEvent.of(AppEvent.Level.ERROR, source, message));
    }

    public void append(AppEvent event) {
        LOG.info("[{}] {} {}", event.level(), event.source(), event.message());
        try {
            store(event);
        } catch (RejectedExecutionException closing) {
            LOG.debug("Event not stored: the application is closing");
        }
    }

    private void store(AppEvent event) {
        executor.execute(() -> {
            AppEvent stored = event;
            try {
                stored = repository.append(event);
            } catch (StoreException e) {
                LOG.warn("Event not stored: {}", e.getMessage());
            }
            for (Consumer<AppEvent> l : listeners) {
                l.accept(stored);
            }
        });
    }

    /** The newest events from earlier runs and this one, oldest first; blocking. */
    public List<AppEvent> recent(int limit) throws StoreException {
        return repository.latest(limit);
    }

    public void addListener(Consumer<AppEvent> listener) {
        listeners.add(listener);
    }

    public void removeListener(Consumer<AppEvent> listener) {
        listeners.remove(listener);
    }
}
