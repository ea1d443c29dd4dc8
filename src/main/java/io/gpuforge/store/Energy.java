package io.gpuforge.store;

import io.gpuforge.domain.telemetry.Tariff;
import java.util.List;
import java.util.Optional;

/**
 * The integral of power over time (trapezoids between consecutive readings), left out across gaps: a gap marker,
 * a reading without power, or two readings further apart than their interval allows ({@link M4#maxGapMillis}).
 */
final class Energy {

    private Energy() {
    }

    /** Energy in joules, the time it covers, and its cost (0 without a tariff). */
    record Integral(double joules, long coveredMillis, double cost) {
        Integral plus(Integral o) {
            return new Integral(joules + o.joules, coveredMillis + o.coveredMillis, cost + o.cost);
        }
    }

    static Integral integrate(SampleCodec.Column c, long from, long to, Optional<Tariff> tariff) {
        double joules = 0;
        double cost = 0;
        long covered = 0;
        long[] t = c.times();
        double[] v = c.values();
        for (int i = 0; i + 1 < c.size(); i++) {
            int j = i + 1;
            if (c.gap()[i] || c.gap()[j] || Double.isNaN(v[i]) || Double.isNaN(v[j])) {
                continue;
            }
            long dt = t[j] - t[i];
            if (dt <= 0 || dt > M4.maxGapMillis(c.intervals()[i])) {
                continue;
            }
            long a = Math.max(t[i], from);
            long b = Math.min(t[j], to);
            if (b <= a) {
                continue;
            }
            // the power at a and b on the straight line between the two readings
            double pa = v[i] + (v[j] - v[i]) * (a - t[i]) / dt;
            double pb = v[i] + (v[j] - v[i]) * (b - t[i]) / dt;
            double e = (pa + pb) / 2 * (b - a) / 1000.0;
            joules += e;
            covered += b - a;
            if (tariff.isPresent()) {
                cost += e / 3.6e6 * tariff.get().priceAt((a + b) / 2);
            }
        }
        return new Integral(joules, covered, cost);
    }

    /** Columns of consecutive chunks as one, in order. */
    static SampleCodec.Column concat(List<SampleCodec.Column> cols) {
        int n = 0;
        for (SampleCodec.Column c : cols) {
            n += c.size();
        }
        long[] t = new long[n];
        int[] iv = new int[n];
        double[] v = new double[n];
        boolean[] g = new boolean[n];
        int p = 0;
        for (SampleCodec.Column c : cols) {
            System.arraycopy(c.times(), 0, t, p, c.size());
            System.arraycopy(c.intervals(), 0, iv, p, c.size());
            System.arraycopy(c.values(), 0, v, p, c.size());
            System.arraycopy(c.gap(), 0, g, p, c.size());
            p += c.size();
        }
        return new SampleCodec.Column(t, iv, v, g, n);
    }
}
