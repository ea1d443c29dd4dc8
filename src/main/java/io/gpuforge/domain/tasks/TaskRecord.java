package io.gpuforge.domain.tasks;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One entry of the task log, the audit trail of what was done through GPUForge: who ({@code user}, the person at
 * this computer, and {@code actingAs}, the account the hypervisor saw), what ({@code action}, e.g. {@code vm.start},
 * and a one-line {@code description}), when, on which connection and target ({@code node/vmid}, a host), how it
 * ended, and its log. {@code id} is 0 until stored. {@code origin} tells GPUForge's own tasks from tasks others
 * started on the cluster.
 *
 * @param upid the Proxmox VE task id, when the backend gave one
 */
public record TaskRecord(long id, Instant started, Optional<Instant> ended, String user, String actingAs,
                         long connectionId, String connection, String target, String action, String description,
                         Status status, String statusText, Optional<String> upid, List<String> log, Origin origin) {

    public enum Status {
        RUNNING, OK, FAILED, CANCELLED;

        public boolean finished() {
            return this != RUNNING;
        }
    }

    public enum Origin { GPUFORGE, CLUSTER }

    public TaskRecord {
        Objects.requireNonNull(started);
        Objects.requireNonNull(ended);
        Objects.requireNonNull(user);
        Objects.requireNonNull(actingAs);
        Objects.requireNonNull(connection);
        Objects.requireNonNull(target);
        Objects.requireNonNull(action);
        Objects.requireNonNull(description);
        Objects.requireNonNull(status);
        Objects.requireNonNull(statusText);
        Objects.requireNonNull(upid);
        Objects.requireNonNull(origin);
        log = List.copyOf(log);
    }

    /** How long it ran (so far, at {@code now}, while it runs). */
    public Duration duration(Instant now) {
        Duration d = Duration.between(started, ended.orElse(now));
        return d.isNegative() ? Duration.ZERO : d;
    }

    public TaskRecord withId(long newId) {
        return new TaskRecord(newId, started, ended, user, actingAs, connectionId, connection, target, action,
                description, status, statusText, upid, log, origin);
    }

    public TaskRecord withLog(List<String> lines) {
        return new TaskRecord(id, started, ended, user, actingAs, connectionId, connection, target, action,
                description, status, statusText, upid, lines, origin);
    }

    public TaskRecord withUpid(Optional<String> u) {
        return new TaskRecord(id, started, ended, user, actingAs, connectionId, connection, target, action,
                description, status, statusText, u, log, origin);
    }

    /** The same task, ended now with this status. */
    public TaskRecord finished(Instant at, Status s, String text) {
        return new TaskRecord(id, started, Optional.of(at), user, actingAs, connectionId, connection, target, action,
                description, s, text, upid, log, origin);
    }
}
