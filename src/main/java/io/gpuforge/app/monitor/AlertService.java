package io.gpuforge.app.monitor;

import io.gpuforge.domain.telemetry.AlertEvent;
import io.gpuforge.domain.telemetry.AlertRule;
import io.gpuforge.domain.telemetry.GpuId;
import io.gpuforge.domain.telemetry.GpuSample;
import io.gpuforge.store.AlertRuleRepository;
import io.gpuforge.store.StoreException;
import io.gpuforge.telemetry.AlertEvaluator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * GPU alerts: the rules (stored in SQLite), evaluated against every sample the monitor receives; what fires or
 * clears goes to the log, to the events panel ({@link EventLog}) and to the listeners (the window's desktop
 * notification). Listeners are called on a telemetry thread; hop to your own.
 */
public final class AlertService {

    private static final Logger LOG = LoggerFactory.getLogger(AlertService.class);
    static final String SOURCE = "GPU alerts";

    private final AlertRuleRepository repository;
    private final EventLog events;
    private final AlertEvaluator evaluator = new AlertEvaluator(List.of());
    private final List<Consumer<AlertEvent>> listeners = new CopyOnWriteArrayList<>();
    private volatile boolean loaded;

    public AlertService(AlertRuleRepository repository, EventLog events) {
        this.repository = repository;
        this.events = events;
    }

    /** The stored rules, in the order they were made. Blocking. */
    public List<AlertRule> rules() throws TelemetryService.Failure {
        try {
            List<AlertRule> all = repository.all();
            evaluator.setRules(all);
            loaded = true;
            return all;
        } catch (StoreException e) {
            throw new TelemetryService.Failure("Cannot read the alert rules: " + e.getMessage(), e);
        }
    }

    /** Stores a new rule or a changed one; it applies from the next sample. Blocking. */
    public AlertRule save(AlertRule r) throws TelemetryService.Failure {
        try {
            AlertRule saved = repository.save(r);
            rules();
            LOG.info("Alert rule {} saved: {}", saved.id(), saved.describe());
            return saved;
        } catch (StoreException e) {
            throw new TelemetryService.Failure("Cannot save the alert rule: " + e.getMessage(), e);
        }
    }

    public void remove(long id) throws TelemetryService.Failure {
        try {
            repository.remove(id);
            rules();
        } catch (StoreException e) {
            throw new TelemetryService.Failure("Cannot remove the alert rule: " + e.getMessage(), e);
        }
    }

    /**
     * The enabled rules as a Prometheus rules file over {@code gpuforge serve}'s metrics ({@code promtool check
     * rules} accepts it); see {@link io.gpuforge.telemetry.PrometheusRules}.
     */
    public String prometheusRules() throws TelemetryService.Failure {
        return io.gpuforge.telemetry.PrometheusRules.yaml(rules());
    }

    /** Evaluates a sample (called by the monitor's watch, on a telemetry thread). */
    public void accept(GpuSample s) {
        ensureLoaded();
        publish(evaluator.accept(s));
    }

    /** Time passed (once a second while the monitor watches): silent sources count as lost. */
    public void tick(long nowMillis) {
        ensureLoaded();
        publish(evaluator.tick(nowMillis));
    }

    /** The GPUs are no longer watched: their state goes (silence then is no lost source). */
    public void forgetAll() {
        evaluator.forgetAll();
    }

    /** The alerts firing now. */
    public List<Map.Entry<AlertRule, GpuId>> firing() {
        return evaluator.firing();
    }

    public void addListener(Consumer<AlertEvent> l) {
        listeners.add(l);
    }

    public void removeListener(Consumer<AlertEvent> l) {
        listeners.remove(l);
    }

    private void ensureLoaded() {
        if (!loaded) {
            try {
                rules();
            } catch (TelemetryService.Failure e) {
                LOG.warn("{}; alerts are not evaluated until the rules can be read", e.getMessage());
                loaded = true;
            }
        }
    }

    private void publish(List<AlertEvent> fired) {
        for (AlertEvent e : fired) {
            if (e.state() == AlertEvent.State.FIRED) {
                events.warn(SOURCE, e.describe());
            } else {
                events.info(SOURCE, e.describe());
            }
            for (Consumer<AlertEvent> l : listeners) {
                try {
                    l.accept(e);
                } catch (RuntimeException ex) {
                    LOG.warn("An alert listener failed", ex);
                }
            }
        }
    }
}
