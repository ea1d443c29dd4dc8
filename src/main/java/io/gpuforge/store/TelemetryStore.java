package io.gpuforge.store;

import io.gpuforge.domain.telemetry.GpuId;
import io.gpuforge.domain.telemetry.GpuMetric;
import io.gpuforge.domain.telemetry.GpuSample;
import io.gpuforge.domain.telemetry.SourceKind;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * GPU samples in SQLite: {@link #append} queues (never blocks on the database), {@link #flush} writes what is queued
 * in one transaction (one chunk per GPU and minute, rewritten while its minute lasts), and {@link #rollUpAndPrune}
 * turns finished minutes into rollups and deletes what is past its retention (raw 48 h, rollups 90 days by
 * default). Reading goes through {@link TelemetryQueries}. Thread-safe; flush and roll-up run on one background
 * thread at a time.
 */
public final class TelemetryStore {

    private final java.util.concurrent.atomic.AtomicLong written = new java.util.concurrent.atomic.AtomicLong();

    public static final long CHUNK_MILLIS = 60_000;
    public static final Duration DEFAULT_RAW_RETENTION = Duration.ofHours(48);
    public static final Duration DEFAULT_ROLLUP_RETENTION = Duration.ofDays(90);
    private static final Logger LOG = LoggerFactory.getLogger(TelemetryStore.class);
    private static final String ROLLED_UNTIL = "rolled_up_until";
    /** A queue this long is written at once, whatever the flush period (bounded memory). */
    public static final int MAX_QUEUED = 200_000;

    /** How long raw samples and rollups are kept. */
    public record Retention(Duration raw, Duration rollups) {
        public Retention {
            if (raw.compareTo(Duration.ofHours(1)) < 0 || rollups.compareTo(raw) < 0) {
                throw new IllegalArgumentException("raw samples must be kept at least an hour and rollups at least as"
                        + " long as raw samples (raw " + raw + ", rollups " + rollups + ")");
            }
        }

        public static Retention defaults() {
            return new Retention(DEFAULT_RAW_RETENTION, DEFAULT_ROLLUP_RETENTION);
        }
    }

    private final Database db;
    private final Clock clock;
    private volatile Retention retention;
    private final GpuSeriesRepository series;
    private final GpuChunkRepository chunks;
    private final GpuRollupRepository rollups;
    private final Object queueLock = new Object();
    private List<GpuSample> queue = new ArrayList<>();
    /** Per GPU: its id and the samples of its current minute (already written, rewritten as it grows). */
    private final Map<GpuId, Long> ids = new HashMap<>();
    private final Map<Long, GpuSeriesRepository.Row> labels = new HashMap<>();
    private final Map<Long, Open> open = new HashMap<>();
    /** Per GPU: no chunk in the database starts after this (a newer minute needs no look-up). */
    private final Map<Long, Long> newest = new HashMap<>();

    private static final class Open {
        final long start;
        final List<GpuSample> samples;
        /** The encoded form of the first {@code encoder.count()} samples, in order. */
        final SampleCodec.Encoder encoder;

        Open(long start, List<GpuSample> samples, SampleCodec.Encoder encoder) {
            this.start = start;
            this.samples = samples;
            this.encoder = encoder;
        }
    }

    public TelemetryStore(Database db, Clock clock, Retention retention) {
        this.db = db;
        this.clock = clock;
        this.retention = retention;
        this.series = new GpuSeriesRepository(db);
        this.chunks = new GpuChunkRepository(db);
        this.rollups = new GpuRollupRepository(db);
    }

    public GpuSeriesRepository series() {
        return series;
    }

    public GpuChunkRepository chunks() {
        return chunks;
    }

    public GpuRollupRepository rollups() {
        return rollups;
    }

    public Retention retention() {
        return retention;
    }

    public void retention(Retention r) {
        this.retention = r;
    }

    public Clock clock() {
        return clock;
    }

    /** Follows what another process (gpuforge serve) writes into this store from {@code fromMillis} on. */
    public HistoryFollower follower(long fromMillis) {
        return new HistoryFollower(db, fromMillis);
    }

    /** Queues samples for the next flush; returns true when the queue is long enough to flush now. */
    public boolean append(List<GpuSample> samples) {
        synchronized (queueLock) {
            queue.addAll(samples);
            return queue.size() >= MAX_QUEUED;
        }
    }

    /** Readings (gaps not counted) written to the database since the store was opened. */
    public long written() {
        return written.get();
    }

    public int queued() {
        synchronized (queueLock) {
            return queue.size();
        }
    }

    /** Writes everything queued, in one transaction; returns the number of samples written. */
    public synchronized int flush() throws StoreException {
        List<GpuSample> batch;
        synchronized (queueLock) {
            batch = queue;
            queue = new ArrayList<>();
        }
        if (batch.isEmpty()) {
            return 0;
        }
        try {
            db.inTransaction(c -> {
                write(c, batch);
                return null;
            });
        } catch (StoreException e) {
            open.clear(); // what is in memory may now differ from the database: read again on the next write
            newest.clear();
            ids.clear();
            labels.clear();
            throw e;
        }
        written.addAndGet(batch.stream().filter(x -> !x.isGap()).count());
        return batch.size();
    }

    private void write(Connection c, List<GpuSample> batch) throws SQLException {
        Map<Long, List<GpuSample>> bySeries = new LinkedHashMap<>();
        Map<Long, GpuSample> latest = new HashMap<>();
        for (GpuSample s : batch) {
            long id = idOf(c, s);
            bySeries.computeIfAbsent(id, k -> new ArrayList<>()).add(s);
            GpuSample l = latest.get(id);
            if (l == null || s.timeMillis() >= l.timeMillis()) {
                latest.put(id, s);
            }
        }
        List<GpuChunkRepository.Chunk> dirty = new ArrayList<>();
        for (Map.Entry<Long, List<GpuSample>> e : bySeries.entrySet()) {
            long id = e.getKey();
            Map<Long, List<GpuSample>> touched = new LinkedHashMap<>();
            Set<Long> reordered = new HashSet<>();
            for (GpuSample s : e.getValue()) {
                long start = Math.floorDiv(s.timeMillis(), CHUNK_MILLIS) * CHUNK_MILLIS;
                List<GpuSample> target = touched.get(start);
                if (target == null) {
                    target = chunkSamples(c, id, start);
                    touched.put(start, target);
                }
                if (!insertSorted(target, s)) {
                    reordered.add(start);
                }
            }
            for (Map.Entry<Long, List<GpuSample>> t : touched.entrySet()) {
                long start = t.getKey();
                List<GpuSample> ss = t.getValue();
                Open o = open.get(id);
                SampleCodec.Encoder enc;
                if (o != null && o.start == start && o.samples == ss && !reordered.contains(start)) {
                    enc = o.encoder; // the minute grew at its end: only the new samples are encoded
                } else {
                    enc = new SampleCodec.Encoder(start);
                }
                for (int i = enc.count(); i < ss.size(); i++) {
                    enc.add(ss.get(i));
                }
                dirty.add(new GpuChunkRepository.Chunk(id, start, ss.get(ss.size() - 1).timeMillis(), ss.size(),
                        enc.bytes()));
                newest.merge(id, start, Math::max);
                if (o == null || start >= o.start) {
                    open.put(id, new Open(start, ss, enc));
                }
            }
            GpuSeriesRepository.touch(c, id, latest.get(id).timeMillis());
        }
        GpuChunkRepository.put(c, dirty);
    }

    private long idOf(Connection c, GpuSample s) throws SQLException {
        Long id = ids.get(s.gpu());
        GpuSeriesRepository.Row row = new GpuSeriesRepository.Row(id == null ? 0 : id, s.gpu(), s.name(),
                s.source().json(), s.node(), s.vm(), s.timeMillis());
        if (s.isGap() && id != null) {
            return id; // a gap marker carries no news about the GPU
        }
        if (id == null || !labels.get(id).sameLabels(row)) {
            id = GpuSeriesRepository.upsert(c, row);
            ids.put(s.gpu(), id);
            labels.put(id, row);
        }
        return id;
    }

    /** The samples already in a GPU's chunk: from memory for its current minute, else from the database. */
    private List<GpuSample> chunkSamples(Connection c, long id, long start) throws SQLException {
        Open o = open.get(id);
        if (o != null && o.start == start) {
            return o.samples;
        }
        Long known = newest.get(id);
        if (known == null) {
            known = GpuChunkRepository.newestStart(c, id).orElse(Long.MIN_VALUE);
            newest.put(id, known);
        }
        if (start > known) {
            return new ArrayList<>(); // a minute after every stored one: nothing to merge with
        }
        Optional<GpuChunkRepository.Chunk> stored = GpuChunkRepository.get(c, id, start);
        return stored.isPresent() ? StoredSamples.decode(labels.get(id), start, stored.get().data())
                : new ArrayList<>();
    }

    /** Inserts in time order; returns whether {@code s} went at the end. */
    private static boolean insertSorted(List<GpuSample> list, GpuSample s) {
        int i = list.size();
        while (i > 0 && list.get(i - 1).timeMillis() > s.timeMillis()) {
            i--;
        }
        list.add(i, s);
        return i == list.size() - 1;
    }

    /**
     * Rolls every finished minute not rolled up yet into its rollup, then deletes raw chunks and rollups past their
     * retention. Returns the number of minutes rolled up.
     */
    public synchronized int rollUpAndPrune() throws StoreException {
        long now = clock.millis();
        long until = Math.floorDiv(now, CHUNK_MILLIS) * CHUNK_MILLIS - CHUNK_MILLIS; // the last minute may grow still
        long since = state(ROLLED_UNTIL).orElse(0L);
        int rolled = 0;
        if (until > since) {
            List<long[]> keys = chunks.keys(since, until);
            List<GpuRollupRepository.Minute> rows = new ArrayList<>();
            for (long[] k : keys) {
                Optional<GpuChunkRepository.Chunk> ch = chunks.get(k[0], k[1]);
                if (ch.isPresent()) {
                    rows.add(Rollup.of(chunks.get(k[0], k[1] - CHUNK_MILLIS), ch.get(),
                            chunks.get(k[0], k[1] + CHUNK_MILLIS)));
                }
            }
            long done = until;
            db.inTransaction(c -> {
                GpuRollupRepository.put(c, rows);
                setState(c, ROLLED_UNTIL, done);
                return null;
            });
            rolled = rows.size();
        }
        int raw = chunks.deleteBefore(now - retention.raw().toMillis());
        int old = rollups.deleteBefore(now - retention.rollups().toMillis());
        if (raw + old > 0) {
            LOG.debug("Telemetry retention: {} raw minutes and {} rollups removed", raw, old);
        }
        return rolled;
    }

    /** Rollups exist for every minute before this time. */
    public long rolledUpUntil() throws StoreException {
        return state(ROLLED_UNTIL).orElse(0L);
    }

    private Optional<Long> state(String key) throws StoreException {
        return db.with(c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT value FROM telemetry_state WHERE key = ?")) {
                ps.setString(1, key);
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next() ? Optional.of(rs.getLong(1)) : Optional.<Long>empty();
                }
            }
        });
    }

    private static void setState(Connection c, String key, long value) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO telemetry_state (key, value) VALUES (?, ?)"
                + " ON CONFLICT (key) DO UPDATE SET value = excluded.value")) {
            ps.setString(1, key);
            ps.setLong(2, value);
            ps.executeUpdate();
        }
    }
}
