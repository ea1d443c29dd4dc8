package io.gpuforge.app.monitor;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gpuforge.store.AtomicFiles;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How a running {@code gpuforge serve} makes itself known to the window that shares its store: {@code serve.json}
 * beside the database, with its process, its start, its sampling interval and a heartbeat it renews every
 * {@link #HEARTBEAT}; removed when it stops. A beacon whose heartbeat is older than three beats, or whose process is
 * gone (killed, crashed), is not live: the window samples by itself again.
 */
public final class ServiceBeacon {

    public static final String FILE = "serve.json";
    public static final Duration HEARTBEAT = Duration.ofSeconds(5);
    private static final Logger LOG = LoggerFactory.getLogger(ServiceBeacon.class);
    private static final int LIMIT = 16 * 1024;

    /** What a running service says of itself. */
    public record Info(long pid, long startedMillis, long heartbeatMillis, long intervalMillis, String prometheus) {
    }

    private final Path dataDir;
    private final Clock clock;
    private final ObjectMapper json = new ObjectMapper();

    public ServiceBeacon(Path dataDir, Clock clock) {
        this.dataDir = dataDir;
        this.clock = clock;
    }

    public Path file() {
        return dataDir.resolve(FILE);
    }

    /** The live service writing into this store, if one is; a beacon left by a dead one is not. */
    public Optional<Info> live() {
        Optional<Info> i = read();
        if (i.isEmpty()) {
            return i;
        }
        long stale = Math.max(3 * HEARTBEAT.toMillis(), 3 * i.get().intervalMillis());
        boolean fresh = clock.millis() - i.get().heartbeatMillis() <= stale;
        boolean running = ProcessHandle.of(i.get().pid()).map(ProcessHandle::isAlive).orElse(false);
        return fresh && running ? i : Optional.empty();
    }

    /** What the beacon file says, live or not; empty when there is none or it cannot be read. */
    public Optional<Info> read() {
        Path f = file();
        if (!Files.isRegularFile(f)) {
            return Optional.empty();
        }
        try (InputStream in = Files.newInputStream(f)) {
            byte[] bytes = in.readNBytes(LIMIT + 1);
            if (bytes.length > LIMIT) {
                return Optional.empty();
            }
            JsonNode n = json.readTree(bytes);
            return Optional.of(new Info(n.path("pid").asLong(), n.path("startedMillis").asLong(),
                    n.path("heartbeatMillis").asLong(), n.path("intervalMillis").asLong(),
                    n.path("prometheus").asText("off")));
        } catch (IOException | RuntimeException e) {
            LOG.debug("Cannot read {}: {}", f, e.toString());
            return Optional.empty();
        }
    }

    /**
     * Announces this process as the service of this store, renewing the heartbeat on {@code timer} until the
     * returned handle is closed (which removes the beacon).
     */
    public Announcement announce(Duration interval, String prometheus, ScheduledExecutorService timer)
            throws IOException {
        long pid = ProcessHandle.current().pid();
        long started = clock.millis();
        write(new Info(pid, started, started, interval.toMillis(), prometheus));
        ScheduledFuture<?> beat = timer.scheduleWithFixedDelay(() -> {
            try {
                write(new Info(pid, started, clock.millis(), interval.toMillis(), prometheus));
            } catch (IOException e) {
                LOG.warn("Cannot renew {}: {}", file(), e.getMessage());
            }
        }, HEARTBEAT.toMillis(), HEARTBEAT.toMillis(), TimeUnit.MILLISECONDS);
        return () -> {
            beat.cancel(false);
            try {
                if (read().map(i -> i.pid() == pid).orElse(false)) {
                    Files.deleteIfExists(file());
                }
            } catch (IOException e) {
                LOG.warn("Cannot remove {}: {}", file(), e.getMessage());
            }
        };
    }

    private void write(Info i) throws IOException {
        ObjectNode n = json.createObjectNode();
        n.put("pid", i.pid());
        n.put("startedMillis", i.startedMillis());
        n.put("heartbeatMillis", i.heartbeatMillis());
        n.put("intervalMillis", i.intervalMillis());
        n.put("prometheus", i.prometheus());
        AtomicFiles.write(file(), json.writeValueAsBytes(n), true);
    }

    /** Ends the announcement: the heartbeat stops and the beacon goes. */
    public interface Announcement extends AutoCloseable {
        @Override
        void close();
    }
}
