package io.gpuforge.hypervisor.proxmox;

import com.fasterxml.jackson.databind.JsonNode;
import io.gpuforge.domain.BackendException;
import io.gpuforge.domain.vm.ChangeEvent;
import io.gpuforge.hypervisor.Hypervisor;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One subscription to a cluster's changes: every {@code interval} it asks {@code /cluster/resources} and
 * {@code /cluster/tasks} (two requests), compares them with the previous answers ({@link PveFeedDiff}) and
 * tells the listener what differs; connection state changes arrive as {@code CONNECTION} events. It polls on
 * one daemon thread of its own, or on a scheduler it is given. {@link #close()} stops it without waiting:
 * a poll still in flight finishes on its own and tells nobody.
 */
final class PveChangeFeed implements Hypervisor.Subscription {

    private static final Logger LOG = LoggerFactory.getLogger(PveChangeFeed.class);
    private final PveSession session;
    private final PveClient client;
    private final Consumer<ChangeEvent> listener;
    private final ScheduledExecutorService scheduler;
    private final boolean ownScheduler;
    private final Object deliveryLock = new Object();
    private final Hypervisor.Subscription connection;
    private final ScheduledFuture<?> polling;
    private PveFeedDiff.Snapshot last;
    private volatile boolean closed;

    PveChangeFeed(PveSession session, PveClient client, Consumer<ChangeEvent> listener, Duration interval,
                  Optional<ScheduledExecutorService> given, String name) {
        if (interval.isNegative() || interval.isZero()) {
            throw new IllegalArgumentException("the polling interval must be positive: " + interval);
        }
        this.session = session;
        this.client = client;
        this.listener = listener;
        this.ownScheduler = given.isEmpty();
        this.scheduler = given.orElseGet(() -> Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "pve-changes-" + name);
            t.setDaemon(true);
            return t;
        }));
        this.connection = session.onChange(e -> deliver(List.of(e)));
        this.polling = scheduler.scheduleWithFixedDelay(this::poll, 0, interval.toMillis(), TimeUnit.MILLISECONDS);
    }

    private void poll() {
        if (closed) {
            return;
        }
        try {
            PveFeedDiff.Snapshot now = session.call(() -> {
                JsonNode resources = client.get("/cluster/resources", Map.of());
                JsonNode tasks = client.get("/cluster/tasks", Map.of());
                return PveFeedDiff.Snapshot.of(resources, tasks);
            });
            if (last != null) {
                deliver(PveFeedDiff.diff(last, now));
            }
            last = now;
        } catch (BackendException e) {
            // the session told the listener (a CONNECTION event) when the state changed; the next poll tries again
            LOG.debug("Polling for changes failed: {}", e.getMessage());
        } catch (RuntimeException e) {
            LOG.warn("Polling for changes failed", e); // keep polling: a scheduled task that throws is never run again
        }
    }

    private void deliver(List<ChangeEvent> events) {
        synchronized (deliveryLock) {
            for (ChangeEvent e : events) {
                if (closed) {
                    return;
                }
                try {
                    listener.accept(e);
                } catch (RuntimeException ex) {
                    LOG.warn("A change listener failed on {}", e, ex);
                }
            }
        }
    }

    @Override
    public void close() {
        closed = true;
        connection.close();
        polling.cancel(false);
        if (ownScheduler) {
            scheduler.shutdown();
        }
        synchronized (deliveryLock) {
            // once a delivery in progress ended, nothing more reaches the listener
            closed = true;
        }
    }
}
