package io.gpuforge.cli.alert;

import io.gpuforge.app.AppContext;
import io.gpuforge.app.monitor.TelemetryService;
import io.gpuforge.cli.common.CliCommand;
import io.gpuforge.cli.common.CliOutput;
import io.gpuforge.cli.common.CliServices;
import io.gpuforge.domain.telemetry.AlertRule;
import io.gpuforge.domain.telemetry.GpuId;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code gpuforge alert list|add|remove}: the alert rules the window edits, from a shell (a server whose
 * gpuforge serve nobody opens a window on: {@code sudo gpuforge-service alert add --temperature 85}).
 */
final class AlertRulesCommands {

    private AlertRulesCommands() {
    }

    private static Map<String, Object> json(AlertRule r) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", r.id());
        m.put("kind", r.kind().json());
        m.put("gpu", r.gpu().map(GpuId::toString).orElse(null));
        m.put("threshold", r.kind().hasThreshold() ? r.threshold() : null);
        m.put("forSeconds", r.hold().toSeconds());
        m.put("enabled", r.enabled());
        m.put("text", r.describe());
        return m;
    }

    @Command(name = "list", mixinStandardHelpOptions = true, description = "The alert rules, with their ids.")
    static final class ListRules extends CliCommand {
        ListRules(CliServices services) {
            super(services);
        }

        @Override
        public Integer call() throws Exception {
            CliOutput o = services.output();
            try (AppContext ctx = services.openContext()) {
                List<AlertRule> rules = ctx.alerts().rules();
                if (json.enabled()) {
                    List<Map<String, Object>> all = new ArrayList<>();
                    rules.forEach(r -> all.add(json(r)));
                    o.json(Map.of("rules", all));
                } else if (rules.isEmpty()) {
                    o.line("no alert rules (gpuforge alert add --temperature 85)");
                } else {
                    rules.forEach(r -> o.line(r.id() + "  " + r.describe() + (r.enabled() ? "" : "  (disabled)")));
                }
                return 0;
            } catch (TelemetryService.Failure e) {
                o.error("gpuforge alert list: " + e.getMessage());
                return 1;
            }
        }
    }

    @Command(name = "add", mixinStandardHelpOptions = true, description = "Add an alert rule: for every GPU, or one"
            + " (--gpu); it fires once the condition has held for --for seconds, and its alerts go to the log, the"
            + " window, desktop notifications and the webhook.")
    static final class Add extends CliCommand {
        static final class What {
            @Option(names = "--temperature", paramLabel = "C", description = "Temperature at or above C °C.")
            Double temperature;
            @Option(names = "--power-of-limit", paramLabel = "PCT", description = "Power draw at or above PCT %% of"
                    + " the enforced limit.")
            Double power;
            @Option(names = "--throttling", description = "The GPU reports a throttle reason.")
            boolean throttling;
            @Option(names = "--source-lost", description = "No readings from the GPU's source.")
            boolean lost;
        }

        @ArgGroup(exclusive = true, multiplicity = "1")
        What what;
        @Option(names = "--gpu", paramLabel = "ID", description = "Only this GPU (its id, as gpu list --json gives it:"
                + " HOST/DEVICE); default: every GPU.")
        String gpu;
        @Option(names = "--for", paramLabel = "S", defaultValue = "0", description = "Seconds the condition must hold"
                + " (0 to 3600; default 0).")
        long seconds;

        Add(CliServices services) {
            super(services);
        }

        @Override
        public Integer call() throws Exception {
            CliOutput o = services.output();
            Optional<GpuId> scope = Optional.empty();
            if (gpu != null) {
                int slash = gpu.lastIndexOf('/');
                if (slash <= 0 || slash == gpu.length() - 1) {
                    o.error("gpuforge alert add: --gpu takes a GPU's id, HOST/DEVICE (gpu list --json), not " + gpu);
                    return 2;
                }
                scope = Optional.of(new GpuId(gpu.substring(0, slash), gpu.substring(slash + 1)));
            }
            AlertRule rule;
            try {
                AlertRule.Kind kind = what.temperature != null ? AlertRule.Kind.TEMPERATURE : what.power != null
                        ? AlertRule.Kind.POWER_OF_LIMIT : what.throttling ? AlertRule.Kind.THROTTLING
                        : AlertRule.Kind.SOURCE_LOST;
                double threshold = what.temperature != null ? what.temperature : what.power != null ? what.power : 0;
                rule = AlertRule.of(scope, kind, threshold, Duration.ofSeconds(seconds));
            } catch (IllegalArgumentException e) {
                o.error("gpuforge alert add: " + e.getMessage());
                return 2;
            }
            try (AppContext ctx = services.openContext()) {
                AlertRule saved = ctx.alerts().save(rule);
                if (json.enabled()) {
                    o.json(json(saved));
                } else {
                    o.line("added alert rule " + saved.id() + ": " + saved.describe());
                }
                return 0;
            } catch (TelemetryService.Failure e) {
                o.error("gpuforge alert add: " + e.getMessage());
                return 1;
            }
        }
    }

    @Command(name = "remove", mixinStandardHelpOptions = true, description = "Remove an alert rule by its id (alert"
            + " list).")
    static final class Remove extends CliCommand {
        @Parameters(paramLabel = "ID", description = "The rule's id.")
        long id;

        Remove(CliServices services) {
            super(services);
        }

        @Override
        public Integer call() throws Exception {
            CliOutput o = services.output();
            try (AppContext ctx = services.openContext()) {
                if (ctx.alerts().rules().stream().noneMatch(r -> r.id() == id)) {
                    o.error("gpuforge alert remove: no alert rule " + id + " (gpuforge alert list names them)");
                    return 2;
                }
                ctx.alerts().remove(id);
                if (json.enabled()) {
                    o.json(Map.of("removed", id));
                } else {
                    o.line("removed alert rule " + id);
                }
                return 0;
            } catch (TelemetryService.Failure e) {
                o.error("gpuforge alert remove: " + e.getMessage());
                return 1;
            }
        }
    }
}
