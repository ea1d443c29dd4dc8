package io.gpuforge.app;

import io.gpuforge.app.connections.ConnectionsService;
import io.gpuforge.app.connections.SecretsService;
import io.gpuforge.app.host.HostAccess;
import io.gpuforge.app.monitor.AlertService;
import io.gpuforge.app.monitor.AlertWebhook;
import io.gpuforge.app.monitor.CostService;
import io.gpuforge.app.monitor.EventLog;
import io.gpuforge.app.monitor.GpuFleet;
import io.gpuforge.app.monitor.HostName;
import io.gpuforge.app.monitor.TelemetryService;
import io.gpuforge.app.monitor.TelemetrySources;
import io.gpuforge.app.session.Sessions;
import io.gpuforge.app.settings.SettingsStore;
import io.gpuforge.app.share.ShareService;
import io.gpuforge.store.AlertRuleRepository;
import io.gpuforge.store.CostProfileRepository;
import io.gpuforge.store.Database;
import java.time.Clock;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;

/**
 * The GPU monitor's services, built together for the composition root and closed in order: telemetry, the alerts
 * and the webhook they are posted to, costs, and the fleet every GPU monitor view reads.
 */
final class MonitorParts implements AutoCloseable {

    final TelemetryService telemetry;
    final AlertWebhook webhook;
    final AlertService alerts;
    final CostService costs;
    final GpuFleet fleet;
    private final ScheduledExecutorService webhookPosts;

    MonitorParts(Database database, SettingsStore settings, SecretsService secrets, EventLog events,
                 AppExecutors executors, Sessions sessions, HostAccess hostAccess, ConnectionsService connections,
                 ShareService shares) {
        this.telemetry = new TelemetryService(database, sessions, hostAccess, Clock.systemUTC(),
                TelemetrySources.Tools.system(), settings.current().retention());
        this.alerts = new AlertService(new AlertRuleRepository(database), events);
        // posts side by side, a bounded number on their way: a receiver that hangs holds neither the alerts behind
        // it nor memory
        this.webhookPosts = AlertWebhook.postThreads();
        this.webhook = new AlertWebhook(() -> Optional.ofNullable(settings.current().alertWebhook()),
                // no vault set up (and no keyring): no token can have been saved, so none goes with the post
                () -> secrets.state() == SecretsService.State.VAULT_NOT_SET_UP ? Optional.empty()
                        : secrets.store().get(AlertWebhook.TOKEN_KEY), webhookPosts, Clock.systemUTC(), HostName.get());
        this.alerts.addListener(webhook);
        this.costs = new CostService(new CostProfileRepository(database), telemetry.history());
        this.fleet = new GpuFleet(connections, sessions, telemetry, alerts, executors.background(),
                executors.scheduler(), Clock.systemUTC(), true, () -> settings.current().samplerInterval(),
                shares::nodeShares);
    }

    @Override
    public void close() {
        fleet.close();
        telemetry.close();
        webhookPosts.shutdownNow();
    }
}
