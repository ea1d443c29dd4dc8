package io.gpuforge.store;

import io.gpuforge.domain.GpuMetric;
import io.gpuforge.domain.GpuSample;
import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import java.util.List;

/**
 * The compact form of one GPU's samples in one minute (a chunk): a version byte, the count, then per sample the
 * time since the chunk's start, the sampling interval and a bit mask of the metrics present (varints), and each
 * present metric as a 32-bit float. A sample whose mask is 0 is a gap marker. Absent stays absent: no value is
 * ever stored for a metric the source did not report.
 */
public final class SampleCodec {

    static final int VERSION = 1;

    private SampleCodec() {
    }

    /** One metric of a chunk, decoded: times, intervals, values (NaN where absent) and gap markers. */
    public record Column(long[] times, int[] intervals, double[] values, boolean[] gap, int size) {
    }

    /** Encodes samples of one minute (sorted by time, all at or after {@code startMillis}). */
    public static byte[] encode(long startMillis, List<GpuSample> samples) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(8 + samples.size() * 48);
        out.write(VERSION);
        varint(out, samples.size());
        byte[] f = new byte[4];
        for (GpuSample s : samples) {
            varint(out, s.timeMillis() - startMillis);
            varint(out, Math.max(0, s.intervalMillis()));
            int mask = 0;
            for (int m = 0; m < GpuMetric.count(); m++) {
                if (!Double.isNaN(s.raw(GpuMetric.of(m)))) {
                    mask |= 1 << m;
                }
            }
            varint(out, mask);
            for (int m = 0; m < GpuMetric.count(); m++) {
                if ((mask & (1 << m)) != 0) {
                    int bits = Float.floatToIntBits((float) s.raw(GpuMetric.of(m)));
                    f[0] = (byte) (bits >>> 24);
                    f[1] = (byte) (bits >>> 16);
                    f[2] = (byte) (bits >>> 8);
                    f[3] = (byte) bits;
                    out.write(f, 0, 4);
                }
            }
        }
        return out.toByteArray();
    }

    /** Decodes one metric of a chunk (the other metrics are skipped, not decoded). */
    public static Column decode(long startMillis, byte[] data, GpuMetric metric) {
        Reader r = new Reader(data);
        int version = r.b();
        if (version != VERSION) {
            throw new IllegalArgumentException("a telemetry chunk of format " + version + " (this GPUForge reads "
                    + VERSION + ")");
        }
        int n = (int) r.varint();
        if (n < 0 || n > 1_000_000) {
            throw new IllegalArgumentException("a telemetry chunk claims " + n + " samples");
        }
        long[] t = new long[n];
        int[] iv = new int[n];
        double[] v = new double[n];
        boolean[] gap = new boolean[n];
        int bit = 1 << metric.ordinal();
        int below = bit - 1;
        for (int i = 0; i < n; i++) {
            t[i] = startMillis + r.varint();
            iv[i] = (int) r.varint();
            int mask = (int) r.varint();
            gap[i] = mask == 0;
            if ((mask & bit) != 0) {
                r.skip(4 * Integer.bitCount(mask & below));
                v[i] = r.f32();
                r.skip(4 * Integer.bitCount(mask & ~(bit | below)));
            } else {
                v[i] = Double.NaN;
                r.skip(4 * Integer.bitCount(mask));
            }
        }
        return new Column(t, iv, v, gap, n);
    }

    /** Every sample of a chunk with all its metrics (rollups, merging a late sample into a written chunk). */
    public static double[][] decodeAll(long startMillis, byte[] data, long[] timesOut, int[] intervalsOut) {
        Reader r = new Reader(data);
        r.b();
        int n = (int) r.varint();
        double[][] rows = new double[n][];
        for (int i = 0; i < n; i++) {
            timesOut[i] = startMillis + r.varint();
            intervalsOut[i] = (int) r.varint();
            int mask = (int) r.varint();
            double[] row = new double[GpuMetric.count()];
            Arrays.fill(row, Double.NaN);
            for (int m = 0; m < GpuMetric.count(); m++) {
                if ((mask & (1 << m)) != 0) {
                    row[m] = r.f32();
                }
            }
            rows[i] = row;
        }
        return rows;
    }

    /** The number of samples in a chunk, from its header. */
    public static int count(byte[] data) {
        Reader r = new Reader(data);
        r.b();
        return (int) r.varint();
    }

    static void varint(ByteArrayOutputStream out, long v) {
        long x = v;
        while ((x & ~0x7FL) != 0) {
            out.write((int) ((x & 0x7F) | 0x80));
            x >>>= 7;
        }
        out.write((int) x);
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
