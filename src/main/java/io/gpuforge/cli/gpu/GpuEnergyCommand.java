package io.gpuforge.cli.gpu;

import com.fasterxml.jackson.databind.JsonNode;
import io.gpuforge.app.AppContext;
import io.gpuforge.app.monitor.TelemetryService;
import io.gpuforge.cli.common.CliCommand;
import io.gpuforge.domain.telemetry.EnergyReport;
import io.gpuforge.domain.telemetry.Tariff;
import java.io.IOException;
import java.nio.file.Path;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import io.gpuforge.cli.common.CliOutput;
import io.gpuforge.cli.common.CliServices;
import io.gpuforge.cli.common.InputFile;

/** {@code gpuforge gpu energy --since … [--until …] [--tariff FILE]}: energy per GPU, VM and node from the history. */
@Command(name = "energy", mixinStandardHelpOptions = true, description = "Energy per GPU, VM and node over a window"
        + " of the stored history (gaps left out and reported); the cost with --tariff.")
final class GpuEnergyCommand extends CliCommand {
    @Option(names = "--since", required = true, paramLabel = "WHEN", description = "Start: an ISO time"
            + " (2026-06-01T00:00:00Z) or a duration back from now (24h, 7d, 90m).")
    String since;

    @Option(names = "--until", paramLabel = "WHEN", description = "End (default now); same forms as --since.")
    String until;

    @Option(names = "--tariff", paramLabel = "FILE", description = "JSON: {\"currency\": \"EUR\", \"price_per_kwh\": 0.30,"
            + " \"peak\": {\"from\": \"07:00\", \"to\": \"22:00\", \"price_per_kwh\": 0.40}, \"zone\": \"Europe/Berlin\"}.")
    Path tariff;

    GpuEnergyCommand(CliServices services) {
        super(services);
    }

    @Override
    public Integer call() throws Exception {
        Instant now = Instant.now();
        Instant from;
        Instant to;
        Optional<Tariff> t;
        try {
            from = when(since, now);
            to = until == null ? now : when(until, now);
            t = tariff == null ? Optional.empty() : Optional.of(readTariff(InputFile.require(tariff, "--tariff")));
        } catch (IllegalArgumentException | IOException e) {
            services.output().error("gpuforge gpu energy: " + e.getMessage());
            return 2;
        }
        try (AppContext ctx = services.openContext()) {
            EnergyReport r;
            try {
                r = ctx.telemetry().history().energy(from, to, t);
            } catch (TelemetryService.Failure e) {
                services.output().error("gpuforge gpu energy: " + e.getMessage());
                return 1;
            }
            if (json.enabled()) {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("from", r.from().toString());
                m.put("to", r.to().toString());
                r.currency().ifPresent(c -> m.put("currency", c));
                m.put("gpus", lines(r.gpus()));
                m.put("vms", lines(r.vms()));
                m.put("nodes", lines(r.nodes()));
                m.put("total", line(r.total()));
                services.output().json(m);
            } else {
                CliOutput o = services.output();
                o.line("Energy from " + r.from() + " to " + r.to() + " (gaps are left out, not guessed):");
                r.gpus().forEach(l -> o.line("  GPU  " + text(l, r)));
                r.vms().forEach(l -> o.line("  VM   " + text(l, r)));
                r.nodes().forEach(l -> o.line("  node " + text(l, r)));
                o.line("  " + text(r.total(), r));
            }
            return 0;
        }
    }

    private static List<Map<String, Object>> lines(List<EnergyReport.Line> ls) {
        return ls.stream().map(GpuEnergyCommand::line).toList();
    }

    private static Map<String, Object> line(EnergyReport.Line l) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("key", l.key());
        m.put("label", l.label());
        m.put("energy_kwh", Math.round(l.kilowattHours() * 1e6) / 1e6);
        m.put("energy_j", Math.round(l.joules() * 10) / 10.0);
        m.put("covered_s", l.covered().toMillis() / 1000.0);
        m.put("gaps_s", l.gaps().toMillis() / 1000.0);
        l.cost().ifPresent(c -> m.put("cost", Math.round(c * 10000) / 10000.0));
        return m;
    }

    private static String text(EnergyReport.Line l, EnergyReport r) {
        return String.format(Locale.ROOT, "%-40s %10.3f kWh  measured %s, gaps %s%s", l.label(), l.kilowattHours(),
                human(l.covered()), human(l.gaps()), l.cost().map(c -> String.format(Locale.ROOT, "  %.2f %s", c,
                        r.currency().orElse(""))).orElse(""));
    }

    private static String human(Duration d) {
        long s = d.toSeconds();
        return s >= 3600 ? String.format(Locale.ROOT, "%.1f h", s / 3600.0) : s >= 60 ? s / 60 + " min" : s + " s";
    }

    static Instant when(String s, Instant now) {
        String v = s.strip().toLowerCase(Locale.ROOT);
        if (v.matches("\\d+(\\.\\d+)?[smhdw]")) {
            double n = Double.parseDouble(v.substring(0, v.length() - 1));
            long unit = switch (v.charAt(v.length() - 1)) {
                case 's' -> 1L;
                case 'm' -> 60L;
                case 'h' -> 3600L;
                case 'd' -> 86400L;
                default -> 7 * 86400L;
            };
            return now.minusMillis(Math.round(n * unit * 1000));
        }
        try {
            return Instant.parse(s.strip());
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("'" + s + "' is neither an ISO time (2026-06-01T00:00:00Z) nor a duration"
                    + " (24h, 7d, 90m)");
        }
    }

    Tariff readTariff(Path file) throws IOException {
        JsonNode n = services.output().mapper().readTree(file.toFile());
        try {
            String currency = n.path("currency").asText("");
            if (currency.isEmpty() || !n.path("price_per_kwh").isNumber()) {
                throw new IllegalArgumentException("the tariff " + file + " needs \"currency\" and \"price_per_kwh\"");
            }
            Optional<Tariff.Peak> peak = Optional.empty();
            if (n.has("peak")) {
                JsonNode p = n.get("peak");
                peak = Optional.of(new Tariff.Peak(LocalTime.parse(p.path("from").asText()), LocalTime.parse(
                        p.path("to").asText()), p.path("price_per_kwh").asDouble(Double.NaN)));
            }
            ZoneId zone = n.has("zone") ? ZoneId.of(n.get("zone").asText()) : ZoneId.systemDefault();
            return new Tariff(currency, n.get("price_per_kwh").asDouble(), peak, zone);
        } catch (DateTimeException e) {
            throw new IllegalArgumentException("the tariff " + file + " has a bad time or zone: " + e.getMessage());
        }
    }
}
