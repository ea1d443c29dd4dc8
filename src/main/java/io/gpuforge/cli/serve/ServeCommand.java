package io.gpuforge.cli.serve;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gpuforge.app.AppContext;
import io.gpuforge.app.monitor.AlertWebhook;
import io.gpuforge.app.desktop.DesktopNotifications;
import io.gpuforge.app.desktop.ProgramStarter;
import io.gpuforge.app.monitor.GpuFleet;
import io.gpuforge.app.monitor.ServiceBeacon;
import io.gpuforge.app.monitor.TelemetryService;
import io.gpuforge.app.settings.Settings;
import io.gpuforge.cli.common.CliCommand;
import io.gpuforge.cli.common.CliOutput;
import io.gpuforge.cli.common.CliServices;
import io.gpuforge.domain.telemetry.AlertEvent;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code gpuforge serve}: the GPU monitor without a window. It samples every saved connection's GPUs (and this
 * computer's) at the interval the window's Preferences set, keeps the history and rollups in the same SQLite store,
 * evaluates the alert rules (a firing or cleared alert is a line of its output and of the log), until SIGTERM or
 * Ctrl-C; then it closes its watches, writes what it read and says how many samples it read and how many the store
 * holds from this run. Alert rules and saved connections the window changes are taken up within
 * {@link #RELOAD}. With {@code --prometheus HOST:PORT} it serves the latest readings to Prometheus. No class of
 * the window (JavaFX) is loaded.
 * --json: one JSON object per line (started, problem, alert, stopped); --quiet: alerts and the end only.
 */
@Command(name = "serve", mixinStandardHelpOptions = true, description = "Run the GPU monitor without a window:"
        + " sample the GPUs of every saved connection and of this computer into the history store and evaluate the"
        + " alert rules (fired and cleared alerts are printed and logged) until SIGTERM or Ctrl-C, then write what"
        + " was read and exit 0. The sampling interval, retention and alert rules are the ones the window edits.")
public final class ServeCommand extends CliCommand {
    private static final Logger LOG = LoggerFactory.getLogger(ServeCommand.class);
    /** How long the first listing of the connections' GPUs is waited for before the start line is printed. */
    private static final Duration FIRST_LISTING = Duration.ofSeconds(60);
    /** How often the window's changes (alert rules, saved connections) are read. */
    static final Duration RELOAD = Duration.ofSeconds(10);

    @Option(names = "--duration", paramLabel = "S", description = "Stop after S seconds (default: until SIGTERM or"
            + " Ctrl-C).")
    double duration = -1;

    @Option(names = "--prometheus", paramLabel = "HOST:PORT", description = "Serve the latest readings to Prometheus"
            + " on http://HOST:PORT/metrics (off by default; a bare PORT is on 127.0.0.1; default: the address saved"
            + " in Preferences). A loopback address answers loopback Host names only; any other needs --web-config"
            + " with TLS and basic auth.")
    String prometheus;

    @Option(names = "--web-config", paramLabel = "FILE", description = "The web configuration file of Prometheus'"
            + " exporters: tls_server_config (cert_file, key_file) and basic_auth_users (bcrypt hashes).")
    Path webConfig;

    private final ObjectMapper lines = new ObjectMapper();

    public ServeCommand(CliServices services) {
        super(services);
    }

    @Override
    public Integer call() throws Exception {
        CliOutput o = services.output();
        if (duration == 0 || duration < 0 && duration != -1) {
            o.error("gpuforge serve: --duration must be more than 0 seconds");
            return 2;
        }
        if (prometheus != null && Settings.listenAddress(prometheus).isEmpty()) {
            o.error("gpuforge serve: --prometheus takes HOST:PORT (127.0.0.1:9835) or a port on loopback, not "
                    + prometheus);
            return 2;
        }
        if (prometheus == null && webConfig != null) {
            o.error("gpuforge serve: --web-config goes with --prometheus");
            return 2;
        }
        StopSignals signals = new StopSignals();
        try (AppContext ctx = services.openContext()) {
            ServiceBeacon beacon = new ServiceBeacon(ctx.paths().dataDir(), Clock.systemUTC());
            Optional<ServiceBeacon.Info> other = beacon.live();
            if (other.isPresent()) {
                o.error("gpuforge serve: another gpuforge serve (process " + other.get().pid() + ") already samples"
                        + " into " + ctx.paths().databaseFile() + "; stop it first (one service per store)");
                return 1;
            }
            GpuFleet fleet = ctx.fleet();
            String metrics = "off";
            // the flag, else what the window's Preferences saved
            Settings settings = ctx.settings().current();
            String listen = prometheus != null ? Settings.listenAddress(prometheus).orElseThrow()
                    : settings.prometheusListen();
            Optional<Path> web = prometheus != null ? Optional.ofNullable(webConfig)
                    : Optional.ofNullable(settings.prometheusWebConfig()).map(Path::of);
            if (listen != null) {
                int colon = listen.lastIndexOf(':');
                String host = listen.substring(0, colon).replace("[", "").replace("]", "");
                int port = Integer.parseInt(listen.substring(colon + 1));
                try {
                    int bound = fleet.exportPrometheus(host, port, web);
                    metrics = (ctx.telemetry().prometheus().tls() ? "https://" : "http://") + (host.contains(":") ? "[" + host + "]"
                            : host) + ":" + bound + "/metrics";
                } catch (TelemetryService.Failure e) {
                    o.error("gpuforge serve: " + e.getMessage());
                    return 1;
                }
            }
            long writtenBefore = ctx.telemetry().history().samplesWritten();
            Consumer<AlertEvent> alerts = e -> {
                String line = "gpuforge serve: alert " + (e.state() == AlertEvent.State.FIRED ? "fired" : "cleared")
                        + ": " + e.describe();
                if (e.state() == AlertEvent.State.FIRED) {
                    LOG.warn(line);
                } else {
                    LOG.info(line);
                }
                emit(o, line, event("alert", "state", e.state().name().toLowerCase(Locale.ROOT), "gpu",
                        e.gpu().toString(), "rule", e.rule().describe(), "text", e.describe()));
            };
            ctx.alerts().addListener(alerts);
            // with no window to show them: the desktop's notifications, where a session bus exists (the user
            // service); the settings' webhook posts them already (AppContext)
            java.util.concurrent.ExecutorService shown = java.util.concurrent.Executors.newSingleThreadExecutor(r -> {
                Thread t = new Thread(r, "gpuforge-serve-notifications");
                t.setDaemon(true);
                return t;
            });
            DesktopNotifications desktop = new DesktopNotifications(services.environment(), ProgramStarter.direct(),
                    shown);
            ctx.alerts().addListener(desktop);
            String notified = desktop.why() + "; webhook: " + Optional.ofNullable(settings.alertWebhook())
                    .map(AlertWebhook::redacted).orElse("off");
            String why;
            try (GpuFleet.Subscription watching = fleet.subscribe(() -> { })) {
                long until = System.nanoTime() + FIRST_LISTING.toNanos();
                while (fleet.loading() && System.nanoTime() < until) {
                    Thread.sleep(50);
                }
                String start = "gpuforge serve: watching " + CliOutput.count(fleet.gpus().size(), "GPU") + " every "
                        + fleet.interval().toMillis() / 1000.0 + " s; history in " + ctx.paths().dataDir()
                        .resolve("gpuforge.db") + "; alert rules: " + ctx.alerts().rules().size() + "; secrets: "
                        + secrets(ctx) + "; Prometheus: " + metrics + "; alerts go to the log, " + notified;
                LOG.info(start);
                if (!json.quiet) {
                    emit(o, start, event("started", "gpus", fleet.gpus().size(), "intervalSeconds",
                            fleet.interval().toMillis() / 1000.0, "store", ctx.paths().dataDir().resolve("gpuforge.db")
                                    .toString(), "alertRules", ctx.alerts().rules().size(), "secrets", secrets(ctx),
                            "notifications", notified, "prometheus", metrics));
                    for (GpuFleet.Source s : fleet.sources()) {
                        // the whole text goes to JSON and the log; a line of the output holds its first line
                        s.problem().ifPresent(p -> {
                            LOG.info("{}: {}", s.connection(), p);
                            emit(o, "gpuforge serve: " + s.connection() + ": " + p.lines().findFirst().orElse(""),
                                    event("problem", "connection", s.connection(), "text", p));
                        });
                    }
                }
                ServeReloads reloads = new ServeReloads(ctx);
                java.util.concurrent.ScheduledExecutorService every = java.util.concurrent.Executors
                        .newSingleThreadScheduledExecutor(r -> {
                            Thread t = new Thread(r, "gpuforge-serve-reloads");
                            t.setDaemon(true);
                            return t;
                        });
                every.scheduleWithFixedDelay(() -> {
                    try {
                        if (reloads.check()) {
                            emit(o, "gpuforge serve: the saved connections changed; watching their GPUs again",
                                    event("reloaded", "what", "connections"));
                        }
                    } catch (RuntimeException e) {
                        LOG.warn("Reading the window's changes failed", e);
                    }
                }, RELOAD.toSeconds(), RELOAD.toSeconds(), java.util.concurrent.TimeUnit.SECONDS);
                // the window that opens this store reads what is sampled here instead of sampling it again
                ServiceBeacon.Announcement announced = beacon.announce(fleet.interval(), metrics, every);
                try {
                    why = signals.await(duration < 0 ? -1 : Math.round(duration * 1000));
                } finally {
                    announced.close();
                    every.shutdownNow();
                }
            } finally {
                ctx.alerts().removeListener(alerts);
                ctx.alerts().removeListener(desktop);
                shown.shutdownNow();
            }
            ctx.telemetry().history().flushQuietly();
            long read = fleet.samplesRead();
            long stored = ctx.telemetry().history().samplesWritten() - writtenBefore;
            String end = "gpuforge serve: stopped (" + why + "): " + read + " samples read, " + stored
                    + " stored by this run";
            LOG.info(end);
            emit(o, end, event("stopped", "why", why, "read", read, "stored", stored));
            if (stored < read) {
                o.error("gpuforge serve: " + (read - stored) + " samples read were not stored; see the log");
                return 1;
            }
            return 0;
        } finally {
            signals.done();
        }
    }

    /** Where the connections' secrets come from, so that a service that cannot reach them says why. */
    private static String secrets(AppContext ctx) {
        return switch (ctx.secrets().state()) {
            case KEYRING -> "the desktop's keyring";
            case VAULT_UNLOCKED -> "vault, unlocked";
            case VAULT_LOCKED -> "vault, locked (no passphrase: the credential vault-passphrase or "
                    + "GPUFORGE_VAULT_PASSPHRASE)";
            case VAULT_NOT_SET_UP -> "none saved";
        };
    }

    /** A line of text, or with --json the same as one JSON object on its own line. */
    private void emit(CliOutput o, String text, Map<String, Object> event) {
        if (json.enabled()) {
            try {
                o.line(lines.writeValueAsString(event));
            } catch (JsonProcessingException e) {
                throw new IllegalStateException("Cannot write a JSON line", e);
            }
        } else {
            o.line(text);
        }
    }

    private static Map<String, Object> event(String kind, Object... pairs) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("event", kind);
        for (int i = 0; i + 1 < pairs.length; i += 2) {
            m.put((String) pairs[i], pairs[i + 1]);
        }
        return m;
    }
}
