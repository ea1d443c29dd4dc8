package io.gpuforge.store;

import io.gpuforge.domain.telemetry.GpuMetric;
import io.gpuforge.domain.telemetry.GpuSample;
import java.util.Arrays;
import java.util.List;

/**
 * The compact form of one GPU's samples in one minute (a chunk): a version byte, the count, then per sample (varints)
 * the time since the sample before (the first: since the chunk's start) shifted left by two, bit 1 set when the
 * sampling interval follows and bit 0 when the bit mask of the metrics present follows (the first sample, and when
 * they change), then, unless no metric is present, a bit mask of those whose value is the metric's last value in the
 * chunk, then each other present metric as a 32-bit float. Readings repeat a lot from one second to the next (limits,
 * totals, clocks, temperatures), so a sample takes some 10–20 bytes instead of 60–70, and a minute's chunk stays
 * small enough for SQLite to keep it in its row. A sample whose mask is 0 is a gap marker. Absent stays absent: no value is ever stored for a metric the
 * source did not report. Chunks of format 1 (every value written, the interval always) are still read.
 */
public final class SampleCodec {

    static final int VERSION = 2;
    /** The first format: time, interval and mask per sample, every present value as a float. */
    static final int VERSION_1 = 1;

    private SampleCodec() {
    }

    /** One metric of a chunk, decoded: times, intervals, values (NaN where absent) and gap markers. */
    public record Column(long[] times, int[] intervals, double[] values, boolean[] gap, int size) {
    }

    /** Encodes samples of one minute (sorted by time, all at or after {@code startMillis}). */
    public static byte[] encode(long startMillis, List<GpuSample> samples) {
        Encoder e = new Encoder(startMillis);
        samples.forEach(e::add);
        return e.bytes();
    }

    /**
     * A chunk encoded as it grows: samples are added in time order and {@link #bytes} is the chunk so far, so a
     * minute that gets a reading a second is not encoded again from its start at every write.
     */
    public static final class Encoder {
        private final long start;
        private final Writer body = new Writer(64 * 16);
        private final int[] last = new int[GpuMetric.count()];
        private int known;
        private int interval = -1;
        private int lastMask = -1;
        private long lastTime;
        private int count;

        public Encoder(long startMillis) {
            this.start = startMillis;
            this.lastTime = startMillis;
        }

        /** The samples added so far. */
        public int count() {
            return count;
        }

        /** Adds a sample at or after the last one added. */
        public void add(GpuSample s) {
            int iv = Math.max(0, s.intervalMillis());
            int metrics = last.length;
            int mask = 0;
            int same = 0;
            for (int m = 0; m < metrics; m++) {
                double v = s.raw(GpuMetric.of(m));
                if (!Double.isNaN(v)) {
                    int bit = 1 << m;
                    mask |= bit;
                    int bits = Float.floatToIntBits((float) v);
                    if ((known & bit) != 0 && last[m] == bits) {
                        same |= bit;
                    }
                    last[m] = bits;
                    known |= bit;
                }
            }
            boolean newInterval = iv != interval;
            boolean newMask = mask != lastMask;
            body.varint(Math.max(0, s.timeMillis() - lastTime) << 2 | (newInterval ? 2 : 0) | (newMask ? 1 : 0));
            lastTime = Math.max(lastTime, s.timeMillis());
            if (newInterval) {
                body.varint(iv);
                interval = iv;
            }
            if (newMask) {
                body.varint(mask);
                lastMask = mask;
            }
            if (mask != 0) {
                body.varint(same);
            }
            for (int m = 0; m < metrics; m++) {
                int bit = 1 << m;
                if ((mask & bit) != 0 && (same & bit) == 0) {
                    body.f32(last[m]);
                }
            }
            count++;
        }

        /** The chunk: its header and every sample added. */
        public byte[] bytes() {
            Writer out = new Writer(body.p + 8);
            out.b(VERSION);
            out.varint(count);
            out.append(body);
            return out.bytes();
        }
    }

    /** Decodes one metric of a chunk (the other metrics are skipped, not decoded). */
    public static Column decode(long startMillis, byte[] data, GpuMetric metric) {
        Samples in = new Samples(new Reader(data), startMillis);
        int n = in.count;
        long[] t = new long[n];
        int[] iv = new int[n];
        double[] v = new double[n];
        boolean[] gap = new boolean[n];
        int bit = 1 << metric.ordinal();
        int below = bit - 1;
        double last = Double.NaN;
        Reader r = in.r;
        for (int i = 0; i < n; i++) {
            in.next();
            t[i] = in.time;
            iv[i] = in.interval;
            gap[i] = in.mask == 0;
            int written = in.mask & ~in.same;
            if ((in.mask & bit) == 0) {
                v[i] = Double.NaN;
                r.skip(4 * Integer.bitCount(written));
            } else if ((in.same & bit) != 0) {
                v[i] = last;
                r.skip(4 * Integer.bitCount(written));
            } else {
                r.skip(4 * Integer.bitCount(written & below));
                last = r.f32();
                v[i] = last;
                r.skip(4 * Integer.bitCount(written & ~(bit | below)));
            }
        }
        return new Column(t, iv, v, gap, n);
    }

    /** Every sample of a chunk with all its metrics (rollups, merging a late sample into a written chunk). */
    public static double[][] decodeAll(long startMillis, byte[] data, long[] timesOut, int[] intervalsOut) {
        Samples in = new Samples(new Reader(data), startMillis);
        int n = in.count;
        int metrics = GpuMetric.count();
        double[] last = new double[metrics];
        double[][] rows = new double[n][];
        for (int i = 0; i < n; i++) {
            in.next();
            timesOut[i] = in.time;
            intervalsOut[i] = in.interval;
            double[] row = new double[metrics];
            Arrays.fill(row, Double.NaN);
            for (int m = 0; m < metrics; m++) {
                int bit = 1 << m;
                if ((in.mask & bit) != 0) {
                    if ((in.same & bit) == 0) {
                        last[m] = in.r.f32();
                    }
                    row[m] = last[m];
                }
            }
            rows[i] = row;
        }
        return rows;
    }

    /** Walks the sample headers of a chunk of either format; the values are the caller's to read or skip. */
    private static final class Samples {
        final Reader r;
        final int version;
        final int count;
        final long start;
        long time;
        int interval;
        int mask;
        int same;

        Samples(Reader r, long start) {
            this.r = r;
            this.version = version(r);
            this.count = count(r);
            this.start = start;
            this.time = start;
        }

        void next() {
            if (version == VERSION_1) {
                time = start + r.varint();
                interval = (int) r.varint();
                mask = (int) r.varint();
                same = 0;
                return;
            }
            long a = r.varint();
            time += a >>> 2;
            if ((a & 2) != 0) {
                interval = (int) r.varint();
            }
            if ((a & 1) != 0) {
                mask = (int) r.varint();
            }
            same = mask == 0 ? 0 : (int) r.varint();
        }
    }

    private static int version(Reader r) {
        int version = r.b();
        if (version != VERSION && version != VERSION_1) {
            throw new IllegalArgumentException("a telemetry chunk of format " + version + " (this GPUForge reads "
                    + VERSION_1 + " and " + VERSION + ")");
        }
        return version;
    }

    private static int count(Reader r) {
        long n = r.varint();
        if (n < 0 || n > 1_000_000) {
            throw new IllegalArgumentException("a telemetry chunk claims " + n + " samples");
        }
        return (int) n;
    }

    /** The number of samples in a chunk, from its header. */
    public static int count(byte[] data) {
        Reader r = new Reader(data);
        r.b();
        return (int) r.varint();
    }

    /** A growing byte array (ByteArrayOutputStream locks at every byte). */
    private static final class Writer {
        private byte[] d;
        private int p;

        Writer(int capacity) {
            d = new byte[capacity];
        }

        private void room(int n) {
            if (p + n > d.length) {
                d = Arrays.copyOf(d, Math.max(d.length * 2, p + n));
            }
        }

        void b(int v) {
            room(1);
            d[p++] = (byte) v;
        }

        void varint(long v) {
            room(10);
            long x = v;
            while ((x & ~0x7FL) != 0) {
                d[p++] = (byte) ((x & 0x7F) | 0x80);
                x >>>= 7;
            }
            d[p++] = (byte) x;
        }

        void f32(int bits) {
            room(4);
            d[p++] = (byte) (bits >>> 24);
            d[p++] = (byte) (bits >>> 16);
            d[p++] = (byte) (bits >>> 8);
            d[p++] = (byte) bits;
        }

        void append(Writer w) {
            room(w.p);
            System.arraycopy(w.d, 0, d, p, w.p);
            p += w.p;
        }

        byte[] bytes() {
            return Arrays.copyOf(d, p);
        }
    }

    /** Reads a chunk; a damaged one throws IllegalArgumentException instead of reading past its end. */
    private static final class Reader {
        private final byte[] d;
        private int p;

        Reader(byte[] d) {
            this.d = d;
        }

        int b() {
            if (p >= d.length) {
                throw new IllegalArgumentException("a telemetry chunk ends early");
            }
            return d[p++] & 0xFF;
        }

        long varint() {
            long v = 0;
            for (int shift = 0; shift < 64; shift += 7) {
                int x = b();
                v |= (long) (x & 0x7F) << shift;
                if ((x & 0x80) == 0) {
                    return v;
                }
            }
            throw new IllegalArgumentException("a telemetry chunk has a malformed number");
        }

        void skip(int n) {
            p += n;
        }

        double f32() {
            if (p + 4 > d.length) {
                throw new IllegalArgumentException("a telemetry chunk ends early");
            }
            int bits = (d[p] & 0xFF) << 24 | (d[p + 1] & 0xFF) << 16 | (d[p + 2] & 0xFF) << 8 | d[p + 3] & 0xFF;
            p += 4;
            return Float.intBitsToFloat(bits);
        }
    }
}
