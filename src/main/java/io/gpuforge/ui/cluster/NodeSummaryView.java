package io.gpuforge.ui.cluster;

import io.gpuforge.domain.NodeStatus;
import io.gpuforge.ui.common.Disposable;
import io.gpuforge.ui.common.I18n;
import io.gpuforge.ui.common.Loadable;
import io.gpuforge.ui.common.ViewScope;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import javafx.geometry.Insets;
import javafx.scene.control.Label;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.VBox;

/** A node's summary: versions, kernel, uptime, CPU use and count, memory used of total. */
final class NodeSummaryView extends VBox implements Disposable {

    private final ViewScope scope = new ViewScope();

    NodeSummaryView(Loadable<NodeStatus> status, I18n i18n) {
        setPadding(new Insets(12));
        setSpacing(10);
        getStyleClass().add("node-summary");
        Label state = new Label();
        state.setId("node-status-state");
        state.setWrapText(true);
        GridPane grid = new GridPane();
        grid.setHgap(16);
        grid.setVgap(6);
        Label version = value("node-version");
        Label kernel = value("node-kernel");
        Label uptime = value("node-uptime");
        Label cpu = value("node-cpu");
        Label memory = value("node-memory");
        String[] keys = {"console.node.version", "console.node.kernel", "console.node.uptime", "console.node.cpu",
            "console.node.memory"};
        Label[] values = {version, kernel, uptime, cpu, memory};
        for (int i = 0; i < keys.length; i++) {
            Label name = new Label();
            scope.bind(name.textProperty(), i18n.text(keys[i]));
            name.getStyleClass().add("text-muted");
            grid.addRow(i, name, values[i]);
        }
        getChildren().setAll(state, grid);
        Runnable render = () -> {
            NodeStatus s = status.valueProperty().get();
            String error = status.errorProperty().get();
            state.setText(error != null ? i18n.get("console.node.error", error)
                    : s == null ? i18n.get("console.node.loading") : "");
            state.setVisible(!state.getText().isEmpty());
            state.setManaged(state.isVisible());
            if (s == null) {
                return;
            }
            version.setText(s.version().orElse(i18n.get("value.unknown")));
            kernel.setText(s.kernel().orElse(i18n.get("value.unknown")));
            uptime.setText(ConsoleFormat.uptime(s.uptimeSeconds(), i18n));
            cpu.setText(i18n.get("console.node.cpuValue", ConsoleFormat.percent(s.cpuUsage(), i18n), s.cpus()));
            memory.setText(memory(s.memoryUsedBytes(), s.memoryTotalBytes(), i18n));
        };
        scope.listen(status.valueProperty(), (o, a, b) -> render.run());
        scope.listen(status.errorProperty(), (o, a, b) -> render.run());
        scope.listen(i18n.localeProperty(), (o, a, b) -> render.run());
        render.run();
    }

    static String memory(OptionalLong used, OptionalLong total, I18n i18n) {
        if (used.isEmpty() || total.isEmpty() || total.getAsLong() == 0) {
            return ConsoleFormat.bytes(total, i18n);
        }
        return i18n.get("console.node.memoryValue", ConsoleFormat.bytes(used.getAsLong()),
                ConsoleFormat.bytes(total.getAsLong()), ConsoleFormat.percent(OptionalDouble.of(
                        used.getAsLong() / (double) total.getAsLong()), i18n));
    }

    private static Label value(String id) {
        Label l = new Label();
        l.setId(id);
        return l;
    }

    @Override
    public void dispose() {
        scope.dispose();
    }
}
