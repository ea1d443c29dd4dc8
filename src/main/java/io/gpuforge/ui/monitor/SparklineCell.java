package io.gpuforge.ui.monitor;

import io.gpuforge.ui.common.ThemeManager;
import java.util.Locale;
import javafx.scene.canvas.Canvas;
import javafx.scene.canvas.GraphicsContext;
import javafx.scene.control.ContentDisplay;
import javafx.scene.control.TableCell;
import javafx.scene.paint.Color;

/** Utilisation now, as a number, beside the last minute as a sparkline (gaps left blank). */
final class SparklineCell extends TableCell<FleetRow, Number> {

    private static final double W = 64;
    private static final double H = 16;
    private final Canvas canvas = new Canvas(W, H);
    private final ThemeManager theme;

    SparklineCell(ThemeManager theme) {
        this.theme = theme;
        setContentDisplay(ContentDisplay.RIGHT);
        setGraphicTextGap(6);
    }

    @Override
    protected void updateItem(Number n, boolean empty) {
        super.updateItem(n, empty);
        FleetRow r = empty ? null : getTableRow().getItem();
        if (r == null) {
            setText(null);
            setGraphic(null);
            return;
        }
        setText(n == null || Double.isNaN(n.doubleValue()) ? "" : String.format(Locale.ROOT, "%3.0f %%",
                n.doubleValue()));
        draw(r.spark().get());
        setGraphic(canvas);
    }

    private void draw(double[] v) {
        GraphicsContext g = canvas.getGraphicsContext2D();
        g.clearRect(0, 0, W, H);
        g.setStroke(theme.isDark() ? GpuChart.DARK[0] : GpuChart.LIGHT[0]);
        g.setLineWidth(1.2);
        boolean open = false;
        g.beginPath();
        for (int i = 0; i < v.length; i++) {
            double x = v.length == 1 ? W - 1 : i * (W - 1) / (v.length - 1);
            if (Double.isNaN(v[i])) {
                open = false;
                continue;
            }
            double y = H - 1 - Math.max(0, Math.min(100, v[i])) / 100 * (H - 2);
            if (open) {
                g.lineTo(x, y);
            } else {
                g.moveTo(x, y);
            }
            open = true;
        }
        g.stroke();
        g.setStroke(theme.isDark() ? Color.web("#30363d") : Color.web("#d0d7de"));
        g.strokeLine(0, H - 0.5, W, H - 0.5);
    }
}
