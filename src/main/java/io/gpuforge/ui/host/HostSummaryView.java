package io.gpuforge.ui.host;

import io.gpuforge.domain.host.HostSummary;
import io.gpuforge.ui.common.Disposable;
import io.gpuforge.ui.common.I18n;
import io.gpuforge.ui.common.Icons;
import io.gpuforge.ui.common.ViewScope;
import java.util.List;
import java.util.function.Function;
import javafx.beans.binding.Bindings;
import javafx.beans.binding.StringBinding;
import javafx.beans.value.ObservableValue;
import javafx.geometry.Insets;
import javafx.scene.control.Label;
import javafx.scene.control.ProgressIndicator;
import javafx.scene.control.ScrollPane;
import javafx.scene.layout.ColumnConstraints;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;
import org.kordamp.ikonli.feather.Feather;

/** The summary card of a host: OS, kernel, CPU, memory and the IOMMU state. */
public final class HostSummaryView extends ScrollPane implements Disposable {

    private final ObservableValue<HostSummary> summary;
    private final I18n i18n;
    private final HostFactsFormat format;
    private final ViewScope scope = new ViewScope();

    public HostSummaryView(HostSummaryViewModel model, I18n i18n, String titleKey) {
        this(model.summaryProperty(), model.loadingProperty(), model.errorProperty(), i18n, i18n.text(titleKey));
    }

    /** For any source of a summary (a probe's facts, say). */
    public HostSummaryView(ObservableValue<HostSummary> summary, ObservableValue<Boolean> loading,
                           ObservableValue<String> errorText, I18n i18n, ObservableValue<String> titleText) {
        this.summary = summary;
        this.i18n = i18n;
        this.format = new HostFactsFormat(i18n);
        setFitToWidth(true);
        getStyleClass().add("host-summary");

        Label title = new Label();
        scope.bind(title.textProperty(), titleText);
        title.getStyleClass().add("title-2");
        title.setId("host-title");
        title.setGraphic(Icons.of(Feather.MONITOR, 22));
        Label hostname = new Label();
        hostname.setId("host-hostname");
        hostname.getStyleClass().add("text-muted");
        scope.bind(hostname.textProperty(), fact(HostSummary::hostname));
        ProgressIndicator busy = new ProgressIndicator();
        busy.setPrefSize(18, 18);
        scope.bind(busy.visibleProperty(), Bindings.createBooleanBinding(() -> Boolean.TRUE.equals(loading.getValue()),
                loading));
        HBox header = new HBox(12, title, busy);

        GridPane grid = new GridPane();
        grid.setHgap(18);
        grid.setVgap(10);
        grid.getStyleClass().add("facts");
        ColumnConstraints labels = new ColumnConstraints();
        labels.setMinWidth(160);
        ColumnConstraints values = new ColumnConstraints();
        values.setHgrow(Priority.ALWAYS);
        grid.getColumnConstraints().addAll(labels, values);
        addRow(grid, 0, "host.os", "fact-os", fact(format::os));
        addRow(grid, 1, "host.kernel", "fact-kernel", fact(format::kernel));
        addRow(grid, 2, "host.cpu", "fact-cpu", fact(format::cpu));
        addRow(grid, 3, "host.memory", "fact-memory", fact(format::memory));
        Label iommu = addRow(grid, 4, "host.iommu", "fact-iommu", fact(format::iommu));
        scope.listen(summary, (o, old, now) -> styleIommu(iommu, now));
        styleIommu(iommu, summary.getValue());

        Label error = new Label();
        error.setId("host-error");
        error.getStyleClass().add("danger");
        error.setWrapText(true);
        scope.bind(error.textProperty(), Bindings.createStringBinding(() -> errorText.getValue() == null ? ""
                : i18n.get("host.error", errorText.getValue()), errorText, i18n.localeProperty()));
        scope.bind(error.visibleProperty(), Bindings.createBooleanBinding(() -> errorText.getValue() != null, errorText));
        error.managedProperty().bind(error.visibleProperty());

        VBox card = new VBox(14, header, hostname, grid, error);
        card.getStyleClass().add("host-card");
        card.setPadding(new Insets(20));
        setContent(card);
    }

    private static void styleIommu(Label l, HostSummary s) {
        l.getStyleClass().removeAll(List.of("badge-ok", "badge-warn", "badge-muted"));
        if (s != null) {
            l.getStyleClass().addAll("badge", HostFactsFormat.iommuStyle(s));
        }
    }

    private StringBinding fact(Function<HostSummary, String> f) {
        return Bindings.createStringBinding(() -> {
            HostSummary s = summary.getValue();
            return s == null ? "…" : f.apply(s);
        }, summary, i18n.localeProperty());
    }

    private Label addRow(GridPane grid, int row, String labelKey, String id, StringBinding value) {
        Label name = new Label();
        scope.bind(name.textProperty(), i18n.text(labelKey));
        name.getStyleClass().add("fact-name");
        Label v = new Label();
        v.setId(id);
        scope.bind(v.textProperty(), value);
        v.setWrapText(true);
        grid.add(name, 0, row);
        grid.add(v, 1, row);
        return v;
    }

    @Override
    public void dispose() {
        scope.dispose();
    }
}
