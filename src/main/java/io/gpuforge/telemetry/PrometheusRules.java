package io.gpuforge.telemetry;

import io.gpuforge.domain.telemetry.AlertRule;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.Yaml;

/**
 * The alert rules as a Prometheus rules file over the metrics {@code gpuforge serve} exports, so that Prometheus and
 * its Alertmanager alert as the window does: one alerting rule per enabled GPUForge rule, its hold as {@code for},
 * the GPU it is limited to as a {@code gpu} matcher. Prometheus has no hysteresis: a rule's clears at its threshold,
 * which the annotation says. Pure.
 */
public final class PrometheusRules {

    private PrometheusRules() {
    }

    public static String yaml(List<AlertRule> rules) {
        List<Map<String, Object>> out = new ArrayList<>();
        for (AlertRule r : rules) {
            if (!r.enabled()) {
                continue;
            }
            String match = r.gpu().map(g -> "{gpu=\"" + g.toString().replace("\\", "\\\\").replace("\"", "\\\"")
                    + "\"}").orElse("");
            String expr = switch (r.kind()) {
                case TEMPERATURE -> "gpuforge_gpu_temperature_celsius" + match + " >= " + number(r.threshold());
                case POWER_OF_LIMIT -> "100 * gpuforge_gpu_power_watts" + match + " / gpuforge_gpu_power_limit_watts"
                        + match + " >= " + number(r.threshold());
                case THROTTLING -> "gpuforge_gpu_throttled" + match + " == 1";
                case SOURCE_LOST -> "time() - gpuforge_gpu_last_reading_timestamp_seconds" + match + " > "
                        + Math.max(5, r.hold().toSeconds());
            };
            Map<String, Object> rule = new LinkedHashMap<>();
            rule.put("alert", "GpuForge" + switch (r.kind()) {
                case TEMPERATURE -> "GpuTemperature";
                case POWER_OF_LIMIT -> "GpuPowerOfLimit";
                case THROTTLING -> "GpuThrottling";
                case SOURCE_LOST -> "GpuSourceLost";
            });
            rule.put("expr", expr);
            if (r.kind() != AlertRule.Kind.SOURCE_LOST && !r.hold().isZero()) {
                rule.put("for", r.hold().toSeconds() + "s");
            }
            Map<String, String> labels = new LinkedHashMap<>();
            labels.put("severity", "warning");
            labels.put("gpuforge_rule", String.valueOf(r.id()));
            rule.put("labels", labels);
            Map<String, String> notes = new LinkedHashMap<>();
            notes.put("summary", r.describe().replaceFirst(" on .*$", "") + " on {{ $labels.gpu }}"
                    + (r.kind().hasThreshold() ? " (now {{ $value | printf \"%.1f\" }})" : ""));
            if (r.kind().hasThreshold() && r.hysteresis() > 0) {
                notes.put("description", String.format(Locale.ROOT, "GPUForge clears it %.1f below the threshold;"
                        + " Prometheus clears it at the threshold.", r.hysteresis()));
            }
            rule.put("annotations", notes);
            out.add(rule);
        }
        Map<String, Object> group = new LinkedHashMap<>();
        group.put("name", "gpuforge");
        group.put("rules", out);
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("groups", List.of(group));
        DumperOptions o = new DumperOptions();
        o.setDefaultFlowStyle(DumperOptions.FlowStyle.BLOCK);
        o.setWidth(Integer.MAX_VALUE);
        return "# Made by gpuforge alert export --prometheus-rules from GPUForge's alert rules\n" + new Yaml(o).dump(doc);
    }

    private static String number(double v) {
        return v == Math.rint(v) ? String.valueOf((long) v) : String.valueOf(v);
    }
}
