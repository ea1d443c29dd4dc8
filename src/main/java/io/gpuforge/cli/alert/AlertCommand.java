package io.gpuforge.cli.alert;

import io.gpuforge.app.AppContext;
import io.gpuforge.app.monitor.TelemetryService;
import io.gpuforge.cli.common.CliCommand;
import io.gpuforge.cli.common.CliOutput;
import io.gpuforge.cli.common.CliServices;
import io.gpuforge.domain.telemetry.AlertRule;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code gpuforge alert}: the alert rules the window edits (GPU monitor → Alerts), for other tools. */
@Command(name = "alert", mixinStandardHelpOptions = true, description = "The alert rules the window edits (GPU"
        + " monitor, Alerts), and where alerts are posted.", subcommands = {AlertRulesCommands.ListRules.class,
        AlertRulesCommands.Add.class, AlertRulesCommands.Remove.class, AlertWebhookCommand.class,
        AlertCommand.Export.class})
public final class AlertCommand implements Runnable {

    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    @Command(name = "export", mixinStandardHelpOptions = true, description = "Write the enabled alert rules as a"
            + " Prometheus rules file over the metrics of gpuforge serve --prometheus (promtool check rules accepts"
            + " it), for Prometheus and its Alertmanager to alert while no GPUForge runs.")
    static final class Export extends CliCommand {
        @Option(names = "--prometheus-rules", required = true, paramLabel = "FILE", description = "The rules file"
                + " to write (- for standard output).")
        String file;

        Export(CliServices services) {
            super(services);
        }

        @Override
        public Integer call() throws Exception {
            CliOutput o = services.output();
            try (AppContext ctx = services.openContext()) {
                String yaml = ctx.alerts().prometheusRules();
                List<AlertRule> rules = ctx.alerts().rules();
                long enabled = rules.stream().filter(AlertRule::enabled).count();
                if (file.equals("-")) {
                    o.out().print(yaml);
                    o.out().flush();
                    return 0;
                }
                Files.writeString(Path.of(file), yaml);
                if (json.enabled()) {
                    Map<String, Object> m = new LinkedHashMap<>();
                    m.put("file", Path.of(file).toAbsolutePath().toString());
                    m.put("rules", enabled);
                    m.put("disabledLeftOut", rules.size() - enabled);
                    o.json(m);
                } else {
                    o.line("wrote " + enabled + " alert rules to " + file + (rules.size() > enabled ? " ("
                            + (rules.size() - enabled) + " disabled left out)" : "") + "; check them with: promtool"
                            + " check rules " + file);
                }
                return 0;
            } catch (TelemetryService.Failure | IOException e) {
                o.error("gpuforge alert export: " + e.getMessage());
                return 1;
            }
        }
    }
}
