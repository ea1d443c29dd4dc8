package io.gpuforge.domain.telemetry;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * A window of one series reduced for a chart: at most the requested number of points, chosen so that every
 * bucket's first, last, minimum and maximum are kept (M4), plus the gaps (times without readings, never bridged).
 * {@code resolution} says whether the points come from raw samples or from 1-minute rollups (older than the raw
 * retention).
 */
public record ReducedSeries(SeriesKey key, Instant from, Instant to, Resolution resolution, List<Point> points,
                            List<Gap> gaps, long rawCount) {

    public enum Resolution { RAW, MINUTE }

    /** A point of the chart. */
    public record Point(long timeMillis, double value) {
    }

    /** A time without readings: the line stops at {@code fromMillis} and starts again at {@code toMillis}. */
    public record Gap(long fromMillis, long toMillis) {
        public long millis() {
            return toMillis - fromMillis;
        }
    }

    public ReducedSeries {
        Objects.requireNonNull(key);
        Objects.requireNonNull(from);
        Objects.requireNonNull(to);
        Objects.requireNonNull(resolution);
        points = List.copyOf(points);
        gaps = List.copyOf(gaps);
    }

    public double min() {
        return points.stream().mapToDouble(Point::value).min().orElse(Double.NaN);
    }

    public double max() {
        return points.stream().mapToDouble(Point::value).max().orElse(Double.NaN);
    }
}
