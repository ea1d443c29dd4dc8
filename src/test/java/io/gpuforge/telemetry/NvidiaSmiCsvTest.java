package io.gpuforge.telemetry;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.domain.telemetry.GpuMetric;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Cells of nvidia-smi CSV across drivers. */
class NvidiaSmiCsvTest {

    @ParameterizedTest
    @ValueSource(strings = {"[N/A]", "N/A", "[Not Supported]", "ERR!", "[GPU requires reset]", "[Unknown Error]",
            "[Requested functionality has been deprecated]", "", "Not Active"})
    void unreadableCellsAreAbsentNeverZero(String cell) {
        assertThat(NvidiaSmiCsv.number(cell)).isNaN();
    }

    @ParameterizedTest
    @CsvSource(delimiter = ';', value = {"84.24 W;84.24", "7 %;7", "16376 MiB;16376", "2805 MHz;2805", "46;46",
            "0x0000000000000004;4", "28.16;28.16"})
    void valuesWithOrWithoutUnits(String cell, double expected) {
        assertThat(NvidiaSmiCsv.number(cell)).isEqualTo(expected);
    }

    @ParameterizedTest
    @ValueSource(strings = {"Field \"clocks_event_reasons.active\" is not a valid field to query."})
    void aRefusedFieldIsRecognised(String line) {
        assertThat(new NvidiaSmiCsv(NvidiaSmiFields.all()).parse(line))
                .isEqualTo(new NvidiaSmiCsv.FieldRefused("clocks_event_reasons.active"));
        assertThat(NvidiaSmiFields.all().without("clocks_event_reasons.active").orElseThrow().asked())
                .contains("clocks_throttle_reasons.active");
    }

    @ParameterizedTest
    @ValueSource(strings = {"NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure"
            + " that the latest NVIDIA driver is installed and running.", "Failed to initialize NVML: Driver/library"
            + " version mismatch", "No devices were found", "Unable to determine the device handle for GPU0000:01:00.0:"
            + " Unknown Error"})
    void driverProblemsAreProblems(String line) {
        assertThat(new NvidiaSmiCsv(NvidiaSmiFields.all()).parse(line)).isInstanceOf(NvidiaSmiCsv.Problem.class);
    }

    @ParameterizedTest
    @ValueSource(strings = {"index, name, temperature.gpu, power.draw [W]"})
    void aHeaderLineWithUnitsIsReadAsTheColumnOrder(String header) {
        NvidiaSmiCsv csv = new NvidiaSmiCsv(NvidiaSmiFields.all());
        assertThat(csv.parse(header)).isInstanceOf(NvidiaSmiCsv.Header.class);
        NvidiaSmiCsv.Row r = (NvidiaSmiCsv.Row) csv.parse("1, Quadro P1000, 42, [N/A]");
        assertThat(r.values()[GpuMetric.TEMPERATURE_C.ordinal()]).isEqualTo(42);
        assertThat(r.values()[GpuMetric.POWER_W.ordinal()]).isNaN();
        assertThat(r.id("local").device()).isEqualTo("index:1");
    }
}
