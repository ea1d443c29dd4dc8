package io.gpuforge.ui.cluster;

import io.gpuforge.app.passthrough.CheckMessages;
import io.gpuforge.app.passthrough.NodeReadiness;
import io.gpuforge.domain.passthrough.Check;
import io.gpuforge.domain.passthrough.GpuVerdict;
import io.gpuforge.domain.passthrough.Verdict;
import io.gpuforge.ui.common.Disposable;
import io.gpuforge.ui.common.I18n;
import io.gpuforge.ui.common.Loadable;
import io.gpuforge.ui.common.ViewScope;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Collectors;
import javafx.collections.FXCollections;
import javafx.geometry.Insets;
import javafx.scene.control.Label;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;

/**
 * "Which GPUs of this node can I pass through?": each GPU's verdict (ready, needs host setup, blocked) and the
 * checks behind it, in plain words; says whether the host itself was read or only the hypervisor's listing.
 */
final class NodeReadinessView extends VBox implements Disposable {

    private final ViewScope scope = new ViewScope();

    NodeReadinessView(Loadable<NodeReadiness.Result> readiness, I18n i18n) {
        setPadding(new Insets(12));
        setSpacing(8);
        Label source = new Label();
        source.setId("node-readiness-source");
        source.setWrapText(true);
        TableView<GpuVerdict> table = new TableView<>();
        table.setId("node-readiness");
        table.getColumns().setAll(List.of(
                col(i18n, "console.gpus.address", 120, v -> v.address().toString()),
                col(i18n, "console.gpus.name", 220, v -> v.name().map(ConsoleFormat::shortName).orElse("")),
                col(i18n, "console.readiness.verdict", 150, v -> verdict(v.verdict().kind(), i18n)),
                col(i18n, "console.readiness.behind", 420, v -> {
                    CheckMessages m = new CheckMessages(i18n.getLocale());
                    return v.behind().stream().map(c -> mark(c) + m.message(c)).collect(Collectors.joining("; "));
                })));
        Label empty = new Label();
        scope.bind(empty.textProperty(), i18n.text("console.gpus.none"));
        table.setPlaceholder(empty);
        VBox.setVgrow(table, Priority.ALWAYS);
        getChildren().setAll(source, table);
        Runnable render = () -> {
            NodeReadiness.Result r = readiness.valueProperty().get();
            String error = readiness.errorProperty().get();
            source.setText(error != null ? i18n.get("console.readiness.error", error) : r == null
                    ? i18n.get("console.readiness.loading") : r.fromHost()
                    ? i18n.get("console.readiness.fromHost", r.source()) : i18n.get("console.readiness.fromListing"));
            table.setItems(FXCollections.observableArrayList(r == null ? List.of() : r.gpus()));
        };
        scope.listen(readiness.valueProperty(), (o, a, b) -> render.run());
        scope.listen(readiness.errorProperty(), (o, a, b) -> render.run());
        render.run();
    }

    private static String mark(Check c) {
        switch (c.status()) {
            case FAIL:
                return "✗ ";
            case WARN:
                return "! ";
            case UNKNOWN:
                return "? ";
            default:
                return "";
        }
    }

    static String verdict(Verdict.Kind k, I18n i18n) {
        switch (k) {
            case READY:
                return i18n.get("console.readiness.ready");
            case NEEDS_HOST_SETUP:
                return i18n.get("console.readiness.needsSetup");
            default:
                return i18n.get("console.readiness.blocked");
        }
    }

    private TableColumn<GpuVerdict, String> col(I18n i18n, String key, double width, Function<GpuVerdict, String> f) {
        return scope.textColumn(i18n, key, width, f);
    }

    @Override
    public void dispose() {
        scope.dispose();
    }
}
