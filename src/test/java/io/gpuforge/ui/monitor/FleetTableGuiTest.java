package io.gpuforge.ui.monitor;

import static io.gpuforge.ui.monitor.MonitorFixture.onFx;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.app.settings.LanguageChoice;
import io.gpuforge.app.settings.ThemeChoice;
import io.gpuforge.domain.telemetry.FleetGpu;
import io.gpuforge.testing.GuiWindow;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;
import javafx.scene.Node;
import javafx.scene.control.TableRow;
import javafx.stage.Stage;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.Start;

/**
 * The fleet table while readings stream: its rows keep their GPUs and its cells their nodes, only values change. A
 * row measured again or a cell's nodes put back on each reading leave styling to redo after the frame: one more frame
 * in which the window is painted again for nothing (docs/performance.md, issue 47).
 */
@Tag("ui")
class FleetTableGuiTest {

    @RegisterExtension
    static final GuiWindow WINDOW = new GuiWindow();

    private static final int LABS = 6;
    private MonitorFixture fx;

    @Start
    void start(Stage stage) throws Exception {
        // six Demo labs: more GPUs than the table shows at once, so that it scrolls
        fx = WINDOW.closing(new MonitorFixture(stage, ThemeChoice.LIGHT, LanguageChoice.ENGLISH, app -> {
            for (int i = 2; i <= LABS; i++) {
                app.connections().addDemo("Demo lab " + i);
            }
        }));
    }

    @Test
    void newReadingsChangeValuesInPlace(FxRobot robot) throws Exception {
        GpuMonitor m = fx.open(robot);
        robot.interact(() -> m.tabs().getSelectionModel().select(1));
        MonitorFixture.waitUntil(() -> onFx(() -> m.fleet().rows().size() == LABS * 6 && !cells(m).isEmpty()
                && cells(m).stream().noneMatch(c -> c.shown().isEmpty())));
        List<SparklineCell> cells = onFx(() -> cells(m));
        List<TableRow<?>> rows = onFx(() -> m.fleet().table().lookupAll(".table-row-cell").stream()
                .<TableRow<?>>map(n -> (TableRow<?>) n).toList());
        AtomicInteger moved = new AtomicInteger();
        AtomicInteger reindexed = new AtomicInteger();
        robot.interact(() -> {
            for (SparklineCell c : cells) {
                for (Node n : c.line().getChildren()) {
                    n.parentProperty().addListener((o, a, b) -> moved.incrementAndGet());
                }
                c.line().parentProperty().addListener((o, a, b) -> moved.incrementAndGet());
            }
            for (TableRow<?> r : rows) {
                r.indexProperty().addListener((o, a, b) -> reindexed.incrementAndGet());
            }
        });
        // three more readings of every GPU
        FleetGpu gpu = fx.demoGpus().get(0);
        long from = System.currentTimeMillis();
        MonitorFixture.waitUntil(() -> fx.app.fleet().recent(gpu.id(), from).size() >= 3);
        MonitorFixture.waitUntil(() -> onFx(() -> cells.stream().allMatch(c -> c.shown().equals(expected(c)))));
        assertThat(moved.get()).as("nodes of the utilisation cells taken out and put back").isZero();
        assertThat(reindexed.get()).as("rows given another index (measured again, or another GPU)").isZero();
        assertThat(onFx(() -> cells(m))).containsExactlyInAnyOrderElementsOf(cells);
    }

    /** What a cell should say for its row's latest utilisation. */
    private static String expected(SparklineCell c) {
        double now = c.getTableRow().getItem().utilization().get().now();
        return Double.isNaN(now) ? "" : String.format(Locale.ROOT, "%3.0f %%", now);
    }

    private static List<SparklineCell> cells(GpuMonitor m) {
        return m.fleet().table().lookupAll(".table-cell").stream()
                .filter(n -> n instanceof SparklineCell c && !c.isEmpty() && c.getTableRow() != null
                        && c.getTableRow().getItem() != null && c.isVisible())
                .map(n -> (SparklineCell) n).toList();
    }
}
