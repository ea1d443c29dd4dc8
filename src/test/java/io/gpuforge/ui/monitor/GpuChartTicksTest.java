package io.gpuforge.ui.monitor;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The value axis counts in round steps, whatever the data's range. */
class GpuChartTicksTest {

    @Test
    void stepsAreOneTwoTwoAndAHalfOrFiveTimesAPowerOfTen() {
        // a temperature axis from 23 to 99 °C over four ticks: 20 °C apart, not 19.0
        assertThat(GpuChart.niceStep((99.4 - 23.3) / 4)).isEqualTo(20);
        // power 0 to 491 W: 200 W apart
        assertThat(GpuChart.niceStep(491.0 / 4)).isEqualTo(200);
        assertThat(GpuChart.niceStep(100.0 / 4)).isEqualTo(25);
        assertThat(GpuChart.niceStep(0.37)).isEqualTo(0.5);
        assertThat(GpuChart.niceStep(0)).isEqualTo(1);
    }
}
