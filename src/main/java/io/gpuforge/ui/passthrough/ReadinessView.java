package io.gpuforge.ui.passthrough;

import io.gpuforge.app.passthrough.CheckMessages;
import io.gpuforge.domain.passthrough.Check;
import io.gpuforge.domain.passthrough.ReadinessReport;
import io.gpuforge.ui.common.I18n;
import io.gpuforge.ui.common.Icons;
import java.util.Comparator;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import javafx.geometry.Pos;
import javafx.scene.control.Label;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;
import org.kordamp.ikonli.feather.Feather;
import org.kordamp.ikonli.javafx.FontIcon;

/**
 * The engine's readiness checks of a host and a GPU: one row per check with its icon, the plain-language message and
 * the fix (en and zh-CN from the app's check messages). Failures first, then warnings, unknowns, passes. An unknown
 * fact says so, and its message says what would reveal it. Used by the wizard's readiness page and by Analyse a
 * listing.
 */
public final class ReadinessView extends VBox {

    static final String CSS = "/css/passthrough.css";

    public ReadinessView(ReadinessReport report, I18n i18n) {
        this(report, i18n, c -> Optional.empty());
    }

    /**
     * @param handled for a check something else takes care of (the plan, the attach), the key of the line that says
     *                so; such a check needs no acknowledgement
     */
    public ReadinessView(ReadinessReport report, I18n i18n, Function<Check, Optional<String>> handled) {
        getStylesheets().add(Objects.requireNonNull(ReadinessView.class.getResource(CSS), CSS).toExternalForm());
        getStyleClass().add("readiness-view");
        setSpacing(2);
        setId("pt-checks");
        CheckMessages m = new CheckMessages(i18n.getLocale());
        report.checks().stream().sorted(Comparator.comparingInt(ReadinessView::rank)).forEach(c -> getChildren()
                .add(row(c, m, i18n, handled.apply(c))));
    }

    private static int rank(Check c) {
        switch (c.status()) {
            case FAIL:
                return 0;
            case WARN:
                return 1;
            case UNKNOWN:
                return 2;
            default:
                return 3;
        }
    }

    private static HBox row(Check c, CheckMessages m, I18n i18n, Optional<String> handled) {
        FontIcon icon = Icons.of(icon(c.status()), 16);
        icon.getStyleClass().add("check-icon-" + c.status().name().toLowerCase(Locale.ROOT));
        Label status = new Label(i18n.get(statusKey(c.status())));
        status.getStyleClass().add("check-status");
        status.setMinWidth(70);
        Label message = PassthroughWizardPages.wrapped(new Label(m.message(c)));
        VBox text = new VBox(2, message);
        m.fix(c).ifPresent(f -> {
            Label fix = PassthroughWizardPages.wrapped(new Label(i18n.get("passthrough.check.fix", f)));
            fix.getStyleClass().add("check-fix");
            text.getChildren().add(fix);
        });
        handled.ifPresent(key -> {
            Label note = PassthroughWizardPages.wrapped(new Label(i18n.get(key)));
            note.getStyleClass().add("check-handled");
            text.getChildren().add(note);
        });
        HBox.setHgrow(text, Priority.ALWAYS);
        HBox row = new HBox(8, icon, status, text);
        row.setAlignment(Pos.TOP_LEFT);
        row.getStyleClass().addAll("check-row", "check-" + c.status().name().toLowerCase(Locale.ROOT));
        row.setUserData(c);
        return row;
    }

    static Feather icon(Check.Status s) {
        switch (s) {
            case PASS:
                return Feather.CHECK_CIRCLE;
            case WARN:
                return Feather.ALERT_TRIANGLE;
            case FAIL:
                return Feather.X_CIRCLE;
            default:
                return Feather.HELP_CIRCLE;
        }
    }

    static String statusKey(Check.Status s) {
        switch (s) {
            case PASS:
                return "passthrough.check.pass";
            case WARN:
                return "passthrough.check.warn";
            case FAIL:
                return "passthrough.check.fail";
            default:
                return "passthrough.check.unknown";
        }
    }
}
