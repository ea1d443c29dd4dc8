package io.gpuforge.telemetry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpuforge.domain.telemetry.AlertEvent;
import io.gpuforge.domain.telemetry.AlertRule;
import io.gpuforge.domain.telemetry.GpuId;
import io.gpuforge.domain.telemetry.GpuMetric;
import io.gpuforge.domain.telemetry.GpuSample;
import io.gpuforge.domain.telemetry.SourceKind;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Alert rules over sample sequences: hold times, hysteresis (a flapping value fires once), lost sources. */
class AlertEvaluatorTest {

    private static final GpuId A = new GpuId("demo:lab/pve-4090", "0000:01:00.0");
    private static final GpuId B = new GpuId("demo:lab/pve-4090", "0000:02:00.0");
    private static final long T0 = 1_780_000_000_000L;

    private static GpuSample temp(GpuId g, long s, double c) {
        return GpuSample.builder(g, T0 + s * 1000, SourceKind.SIMULATED).name("RTX 4090")
                .set(GpuMetric.TEMPERATURE_C, c).set(GpuMetric.POWER_W, 300).set(GpuMetric.POWER_LIMIT_W, 450)
                .set(GpuMetric.THROTTLE_REASONS, 0).build();
    }

    private static AlertRule rule(long id, Optional<GpuId> gpu, AlertRule.Kind kind, double threshold, int holdS) {
        return AlertRule.of(gpu, kind, threshold, Duration.ofSeconds(holdS)).withId(id);
    }

    private static List<AlertEvent> feed(AlertEvaluator e, List<GpuSample> samples) {
        List<AlertEvent> out = new ArrayList<>();
        samples.forEach(s -> out.addAll(e.accept(s)));
        return out;
    }

    @Test
    void aTemperatureFlappingAroundTheThresholdFiresOnceAndClearsOnlyWhenWellBelow() {
        AlertEvaluator e = new AlertEvaluator(List.of(rule(1, Optional.empty(), AlertRule.Kind.TEMPERATURE, 83, 0)));
        List<GpuSample> s = new ArrayList<>();
        double[] values = {80, 83.5, 82.5, 84, 82.9, 83.2, 81, 83.1, 82, 84.5};
        for (int i = 0; i < values.length; i++) {
            s.add(temp(A, i, values[i]));
        }
        List<AlertEvent> events = feed(e, s);
        assertThat(events).singleElement().satisfies(x -> {
            assertThat(x.state()).isEqualTo(AlertEvent.State.FIRED);
            assertThat(x.atMillis()).isEqualTo(T0 + 1000);
            assertThat(x.value().getAsDouble()).isEqualTo(83.5);
            assertThat(x.describe()).contains("RTX 4090").contains("temperature ≥ 83 °C");
        });
        // below 83 - 3 = 80, but only for 4 s: still firing
        List<GpuSample> cool = new ArrayList<>();
        for (int i = 10; i < 14; i++) {
            cool.add(temp(A, i, 75));
        }
        assertThat(feed(e, cool)).isEmpty();
        assertThat(e.firing()).hasSize(1);
        // 5 s below the band: cleared, once
        assertThat(feed(e, List.of(temp(A, 15, 74), temp(A, 16, 74))))
                .singleElement().satisfies(x -> assertThat(x.state()).isEqualTo(AlertEvent.State.CLEARED));
        assertThat(e.firing()).isEmpty();
    }

    @Test
    void theConditionMustHoldForTheWholeHoldTime() {
        AlertEvaluator e = new AlertEvaluator(List.of(rule(1, Optional.of(A), AlertRule.Kind.TEMPERATURE, 85, 10)));
        // 8 s hot, a dip below the threshold, then 10 s hot
        List<GpuSample> s = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            s.add(temp(A, i, 86));
        }
        s.add(temp(A, 8, 84));
        for (int i = 9; i <= 19; i++) {
            s.add(temp(A, i, 86));
        }
        assertThat(feed(e, s)).singleElement().satisfies(x -> assertThat(x.atMillis()).isEqualTo(T0 + 19_000));
    }

    @Test
    void aRuleForOneGpuLeavesTheOthersAloneAndAGlobalRuleFiresPerGpu() {
        AlertEvaluator one = new AlertEvaluator(List.of(rule(1, Optional.of(A), AlertRule.Kind.TEMPERATURE, 70, 0)));
        assertThat(feed(one, List.of(temp(B, 0, 90)))).isEmpty();
        AlertEvaluator all = new AlertEvaluator(List.of(rule(1, Optional.empty(), AlertRule.Kind.TEMPERATURE, 70, 0)));
        assertThat(feed(all, List.of(temp(A, 0, 90), temp(B, 0, 90), temp(A, 1, 91))))
                .extracting(AlertEvent::gpu).containsExactly(A, B);
    }

    @Test
    void powerIsComparedWithTheEnforcedLimitAndThrottlingWithTheReasonBits() {
        AlertEvaluator e = new AlertEvaluator(List.of(rule(1, Optional.empty(), AlertRule.Kind.POWER_OF_LIMIT, 95, 0),
                rule(2, Optional.empty(), AlertRule.Kind.THROTTLING, 0, 0)));
        GpuSample nearLimit = temp(A, 0, 60).toBuilder().set(GpuMetric.POWER_W, 430).build(); // 95.6 %
        GpuSample idle = temp(A, 1, 60).toBuilder().set(GpuMetric.THROTTLE_REASONS, 0x1).build(); // idle: no throttle
        GpuSample capped = temp(A, 2, 60).toBuilder().set(GpuMetric.THROTTLE_REASONS, 0x4).build(); // SW power cap
        List<AlertEvent> events = feed(e, List.of(nearLimit, idle, capped));
        assertThat(events).extracting(x -> x.rule().kind())
                .containsExactly(AlertRule.Kind.POWER_OF_LIMIT, AlertRule.Kind.THROTTLING);
        assertThat(events.get(0).value().getAsDouble()).isBetween(95.5, 95.6);
        assertThat(events.get(1).describe()).contains("throttling").contains("0x4");
    }

    @Test
    void aSourceThatFailsOrFallsSilentIsLostAndComesBack() {
        AlertEvaluator e = new AlertEvaluator(List.of(rule(1, Optional.empty(), AlertRule.Kind.SOURCE_LOST, 0, 5)));
        assertThat(feed(e, List.of(temp(A, 0, 60), temp(B, 0, 60)))).isEmpty();
        // A's source fails: gap markers at each retry; fires once the 5 s are up
        assertThat(feed(e, List.of(GpuSample.gap(A, T0 + 1000, SourceKind.SIMULATED, "RTX 4090", 1000)))).isEmpty();
        assertThat(e.tick(T0 + 4000)).isEmpty();
        List<AlertEvent> lost = e.tick(T0 + 6000);
        assertThat(lost).singleElement().satisfies(x -> {
            assertThat(x.gpu()).isEqualTo(A);
            assertThat(x.describe()).contains("source lost");
        });
        assertThat(feed(e, List.of(GpuSample.gap(A, T0 + 8000, SourceKind.SIMULATED, "RTX 4090", 1000)))).isEmpty();
        // B sends nothing at all: silent past 10 s counts as lost too
        assertThat(e.tick(T0 + 12_000)).extracting(AlertEvent::gpu).containsExactly(B);
        // A reads again: cleared after 5 s of readings
        assertThat(feed(e, List.of(temp(A, 13, 60), temp(A, 18, 60)))).singleElement()
                .satisfies(x -> assertThat(x.state()).isEqualTo(AlertEvent.State.CLEARED));
    }

    @Test
    void forgettingTheGpusMeansTheirSilenceIsNoLostSource() {
        AlertEvaluator e = new AlertEvaluator(List.of(rule(1, Optional.empty(), AlertRule.Kind.SOURCE_LOST, 0, 0)));
        feed(e, List.of(temp(A, 0, 60)));
        e.forgetAll();
        assertThat(e.tick(T0 + 3_600_000)).isEmpty();
    }

    @Test
    void aRuleThatStaysKeepsItsStateAndAChangedOneStartsOver() {
        AlertRule hot = rule(1, Optional.empty(), AlertRule.Kind.TEMPERATURE, 80, 0);
        AlertEvaluator e = new AlertEvaluator(List.of(hot));
        assertThat(feed(e, List.of(temp(A, 0, 90)))).hasSize(1);
        e.setRules(List.of(hot, rule(2, Optional.empty(), AlertRule.Kind.THROTTLING, 0, 0)));
        assertThat(feed(e, List.of(temp(A, 1, 90)))).as("still firing: no second alert").isEmpty();
        e.setRules(List.of(rule(1, Optional.empty(), AlertRule.Kind.TEMPERATURE, 85, 0)));
        assertThat(feed(e, List.of(temp(A, 2, 90)))).as("a changed rule fires anew").hasSize(1);
    }

    @Test
    void badRulesAreRefusedWithWhatIsWrong() {
        assertThatThrownBy(() -> AlertRule.of(Optional.empty(), AlertRule.Kind.TEMPERATURE, 500, Duration.ZERO))
                .hasMessageContaining("1 to 150 °C");
        assertThatThrownBy(() -> AlertRule.of(Optional.empty(), AlertRule.Kind.POWER_OF_LIMIT, 0, Duration.ZERO))
                .hasMessageContaining("% of the limit");
        assertThatThrownBy(() -> AlertRule.of(Optional.empty(), AlertRule.Kind.THROTTLING, 0, Duration.ofHours(2)))
                .hasMessageContaining("0 s to 1 h");
        assertThatThrownBy(() -> new AlertEvaluator(List.of(AlertRule.of(Optional.empty(), AlertRule.Kind.THROTTLING,
                0, Duration.ZERO)))).hasMessageContaining("stored");
    }
}
