package io.gpuforge.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.app.AppContext;
import io.gpuforge.app.settings.LanguageChoice;
import io.gpuforge.app.settings.ThemeChoice;
import io.gpuforge.domain.telemetry.AlertRule;
import io.gpuforge.domain.telemetry.GpuId;
import io.gpuforge.testing.TestContexts;
import io.gpuforge.testing.Tools;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code gpuforge alert export --prometheus-rules}: the window's alert rules as a Prometheus rules file that
 * {@code promtool check rules} accepts, and that fires in Prometheus' own rule unit tests ({@code promtool test
 * rules}) as the window does: a GPU at 90 °C for longer than the hold, not the one at 60 °C.
 */
class AlertExportCliTest {

    @TempDir
    Path home;

    @Test
    void theRulesExportAsPrometheusRulesThatFireLikeTheWindows() throws Exception {
        Tools.require("promtool", "prometheus");
        long temperature;
        try (AppContext ctx = TestContexts.create(home, home.resolve("no-sysroot"), ThemeChoice.LIGHT,
                LanguageChoice.ENGLISH)) {
            temperature = ctx.alerts().save(new AlertRule(0, Optional.empty(), AlertRule.Kind.TEMPERATURE, 83,
                    Duration.ofSeconds(30), 0, true)).id();
            ctx.alerts().save(new AlertRule(0, Optional.of(new GpuId("demo:Demo lab/pve-4090", "0000:01:00.0")),
                    AlertRule.Kind.POWER_OF_LIMIT, 95, Duration.ofSeconds(10), 2, true));
            ctx.alerts().save(new AlertRule(0, Optional.empty(), AlertRule.Kind.THROTTLING, 0, Duration.ZERO, 0,
                    true));
            ctx.alerts().save(new AlertRule(0, Optional.empty(), AlertRule.Kind.SOURCE_LOST, 0,
                    Duration.ofSeconds(60), 0, true));
            ctx.alerts().save(new AlertRule(0, Optional.empty(), AlertRule.Kind.TEMPERATURE, 70, Duration.ZERO, 0,
                    false));
        }
        Path rules = home.resolve("gpuforge-rules.yml");
        CliHarness cli = new CliHarness(home);
        String[] args = {"alert", "export", "--prometheus-rules", rules.toString()};
        assertThat(cli.run(args)).as(cli.err()).isZero();
        assertThat(cli.out()).contains("wrote 4 alert rules").contains("1 disabled left out");
        assertThat(Files.readString(rules)).contains("gpuforge_gpu_temperature_celsius >= 83")
                .contains("gpu=\"demo:Demo lab/pve-4090/0000:01:00.0\"").contains("for: 30s");

        String checked = run("promtool", "check", "rules", rules.toString());
        assertThat(checked).contains("SUCCESS: 4 rules found");

        Path test = Files.writeString(home.resolve("rules-test.yml"), "rule_files:\n  - gpuforge-rules.yml\n"
                + "evaluation_interval: 15s\ntests:\n  - interval: 15s\n    input_series:\n"
                + "      - series: 'gpuforge_gpu_temperature_celsius{gpu=\"hot\"}'\n        values: '70 90x10'\n"
                + "      - series: 'gpuforge_gpu_temperature_celsius{gpu=\"cool\"}'\n        values: '60x10'\n"
                + "      - series: 'gpuforge_gpu_last_reading_timestamp_seconds{gpu=\"hot\"}'\n"
                + "        values: '0+15x10'\n"
                + "      - series: 'gpuforge_gpu_last_reading_timestamp_seconds{gpu=\"cool\"}'\n"
                + "        values: '0+15x10'\n"
                + "    alert_rule_test:\n      - eval_time: 2m\n        alertname: GpuForgeGpuTemperature\n"
                + "        exp_alerts:\n          - exp_labels:\n              gpu: hot\n              severity: warning\n"
                + "              gpuforge_rule: \"" + temperature + "\"\n            exp_annotations:\n"
                + "              summary: \"temperature ≥ 83 °C for 30 s on hot (now 90.0)\"\n"
                + "      - eval_time: 20s\n        alertname: GpuForgeGpuTemperature\n        exp_alerts: []\n");
        assertThat(run("promtool", "test", "rules", test.toString())).contains("SUCCESS");
    }

    private String run(String... command) throws Exception {
        Process p = new ProcessBuilder(command).directory(home.toFile()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor()).as(String.join(" ", command) + ":\n" + out).isZero();
        return out;
    }
}
