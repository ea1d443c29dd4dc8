package io.gpuforge.ui.monitor;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The axes count in round steps, whatever the data's range and the window's length. */
class GpuChartTicksTest {

    @Test
    void stepsAreOneTwoTwoAndAHalfOrFiveTimesAPowerOfTen() {
        // a temperature axis from 23 to 99 °C over four ticks: 20 °C apart, not 19.0
        assertThat(ChartTicks.niceStep((99.4 - 23.3) / 4)).isEqualTo(20);
        // power 0 to 491 W: 200 W apart
        assertThat(ChartTicks.niceStep(491.0 / 4)).isEqualTo(200);
        assertThat(ChartTicks.niceStep(100.0 / 4)).isEqualTo(25);
        assertThat(ChartTicks.niceStep(0.37)).isEqualTo(0.5);
        assertThat(ChartTicks.niceStep(0)).isEqualTo(1);
    }

    @Test
    void timeTicksAreAtMostSevenAndLabelsStayShort() {
        assertThat(ChartTicks.timeStep(3_600_000L)).as("1 h: every 10 min").isEqualTo(600_000L);
        assertThat(ChartTicks.timeStep(86_400_000L)).as("24 h: every 6 h").isEqualTo(6 * 3_600_000L);
        assertThat(ChartTicks.timeStep(300_000L)).as("5 min: every minute").isEqualTo(60_000L);
        assertThat(ChartTicks.timeStep(365 * 86_400_000L)).as("past the longest step: a week").isEqualTo(7 * 86_400_000L);
        assertThat(ChartTicks.format(12_345)).isEqualTo("12k");
        assertThat(ChartTicks.format(250)).isEqualTo("250");
        assertThat(ChartTicks.format(71.25)).isEqualTo("71.3");
        assertThat(ChartTicks.format(3)).isEqualTo("3");
    }
}
