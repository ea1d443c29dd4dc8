package io.gpuforge.ui.monitor;

import io.gpuforge.domain.telemetry.AlertEvent;
import io.gpuforge.ui.common.UiContext;
import java.util.function.Consumer;
import javafx.application.Platform;
import javafx.stage.Window;
import javafx.util.Duration;
import org.controlsfx.control.Notifications;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Shows each alert that fires (and clears) as a desktop notification over the monitor's window. */
final class AlertNotifier {

    private static final Logger LOG = LoggerFactory.getLogger(AlertNotifier.class);

    private final UiContext ui;
    private final MonitorServices services;
    private final Window owner;
    private final Consumer<AlertEvent> listener = e -> Platform.runLater(() -> show(e));
    private int shown;

    AlertNotifier(UiContext ui, MonitorServices services, Window owner) {
        this.ui = ui;
        this.services = services;
        this.owner = owner;
        services.alerts().addListener(listener);
    }

    private void show(AlertEvent e) {
        if (!owner.isShowing()) {
            return;
        }
        try {
            Notifications n = Notifications.create().owner(owner).hideAfter(Duration.seconds(8))
                    .title(ui.i18n().get(e.state() == AlertEvent.State.FIRED ? "monitor.notify.fired"
                            : "monitor.notify.cleared"))
                    .text(MonitorText.alert(ui.i18n(), e));
            if (ui.theme().isDark()) {
                n.darkStyle();
            }
            if (e.state() == AlertEvent.State.FIRED) {
                n.showWarning();
            } else {
                n.showInformation();
            }
            shown++;
        } catch (RuntimeException ex) {
            // the alert is in the events panel and the log already
            LOG.warn("The desktop notification of an alert could not be shown", ex);
        }
    }

    /** Notifications shown so far (tests). */
    int shown() {
        return shown;
    }

    void dispose() {
        services.alerts().removeListener(listener);
    }
}
