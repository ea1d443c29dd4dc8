package io.gpuforge.ui.monitor;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.function.IntToDoubleFunction;
import javafx.scene.paint.Color;
import org.junit.jupiter.api.Test;

/** The dense-line raster the GPU charts draw a day of readings with: where the line's pixels land, and where not. */
class ColumnRasterTest {

    private static final Color BLUE = Color.web("#1f6feb");

    /** {@code n} points, one per second from t=0, value {@code v(i)} (NaN: a gap, as ChartSeries keeps one). */
    private static ChartSeries series(int n, IntToDoubleFunction v) {
        ChartSeries s = new ChartSeries(0, false, n);
        for (int i = 0; i < n; i++) {
            s.add(i * 1000L, v.applyAsDouble(i));
        }
        return s;
    }

    private static boolean inked(ColumnRaster r, int x) {
        for (int y = 0; y < r.height(); y++) {
            if ((r.pixel(x, y) >>> 24) != 0) {
                return true;
            }
        }
        return false;
    }

    @Test
    void aFlatLineIsOneBandAtItsValueAcrossEveryColumnAndNothingElseIsInked() {
        ColumnRaster r = new ColumnRaster();
        r.begin(100, 50);
        // 0..100 over 50 px: 59 is 20.5 px from the top, the middle of row 20; the line is 1.6 px thick
        r.line(series(400, i -> 59), 0, 399_000, BLUE, 0, 100, 50, 1);
        for (int x = 0; x < 100; x++) {
            assertThat(inked(r, x)).as("column %d", x).isTrue();
            assertThat(r.pixel(x, 20) >>> 24).as("the line's row at column %d", x).isEqualTo(255);
            assertThat(r.pixel(x, 10)).as("far above the line").isZero();
            assertThat(r.pixel(x, 30)).as("far below the line").isZero();
        }
        int p = r.pixel(50, 20);
        assertThat(new int[] {(p >> 16) & 0xff, (p >> 8) & 0xff, p & 0xff}).containsExactly(0x1f, 0x6f, 0xeb);
    }

    @Test
    void aColumnSpansItsMinimumToMaximumAndAGapOfReadingsStaysEmpty() {
        ColumnRaster r = new ColumnRaster();
        r.begin(100, 100);
        // 1,000 points over 100 columns: column 10 swings from 0 to 100, readings 500..599 are missing
        r.line(series(1000, i -> i >= 500 && i < 600 ? Double.NaN : i / 10 == 10 ? (i % 2 == 0 ? 0 : 100) : 50),
                0, 999_000, BLUE, 0, 100, 100, 1);
        for (int y = 1; y < 99; y++) {
            assertThat(r.pixel(10, y) >>> 24).as("column 10 row %d", y).isEqualTo(255);
        }
        for (int x = 51; x < 59; x++) {
            assertThat(inked(r, x)).as("column %d lies in the gap", x).isFalse();
        }
        assertThat(inked(r, 45)).isTrue();
        assertThat(inked(r, 65)).isTrue();
    }

    @Test
    void columnsTheReadingsSkipAreBridgedSoTheLineHasNoHoles() {
        ColumnRaster r = new ColumnRaster();
        r.begin(100, 100);
        // 20 readings over 100 columns: a rising line, about four columns between two readings
        r.line(series(20, i -> i * 100.0 / 19), 0, 19_000, BLUE, 0, 100, 100, 1);
        for (int x = 0; x < 100; x++) {
            assertThat(inked(r, x)).as("column %d", x).isTrue();
        }
        assertThat(r.pixel(0, 99) >>> 24).as("starts at the bottom").isGreaterThan(0);
        assertThat(r.pixel(0, 90)).as("not above its start").isZero();
        assertThat(r.pixel(99, 0) >>> 24).as("ends at the top").isGreaterThan(0);
        assertThat(r.pixel(99, 10)).as("not below its end").isZero();
    }
}
