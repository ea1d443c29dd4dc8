package io.gpuforge.ui.monitor;

import io.gpuforge.ui.common.ThemeManager;
import java.util.Locale;
import javafx.geometry.Pos;
import javafx.scene.canvas.Canvas;
import javafx.scene.canvas.GraphicsContext;
import javafx.scene.control.ContentDisplay;
import javafx.scene.control.TableCell;
import javafx.scene.layout.HBox;
import javafx.scene.paint.Color;
import javafx.scene.text.Text;

/**
 * Utilisation now, as a number, beside the last minute as a sparkline (gaps left blank). Both come from the cell's
 * item. The cell's nodes are made once and stay where they are: a new reading sets the number's text and redraws the
 * line. (A label's text and graphic set afresh on each reading had the label's skin put its nodes back in place, which
 * left styling to redo after the frame's layout, and so one more frame: the whole window painted again for nothing.)
 */
final class SparklineCell extends TableCell<FleetRow, FleetRow.Utilization> {

    private static final double W = 64;
    private static final double H = 16;
    private final Canvas canvas = new Canvas(W, H);
    private final Text value = new Text();
    private final HBox line = new HBox(6, value, canvas);
    private final ThemeManager theme;

    SparklineCell(ThemeManager theme) {
        this.theme = theme;
        // the number in the cell's own font and colour (a selected row's included)
        value.fontProperty().bind(fontProperty());
        value.fillProperty().bind(textFillProperty());
        line.setAlignment(Pos.CENTER_LEFT);
        line.setVisible(false);
        setContentDisplay(ContentDisplay.GRAPHIC_ONLY);
        setGraphic(line);
    }

    @Override
    protected void updateItem(FleetRow.Utilization u, boolean empty) {
        super.updateItem(u, empty);
        if (empty || u == null) {
            line.setVisible(false);
            return;
        }
        String text = Double.isNaN(u.now()) ? "" : String.format(Locale.ROOT, "%3.0f %%", u.now());
        if (!text.equals(value.getText())) {
            value.setText(text);
        }
        draw(u.minute());
        line.setVisible(true);
    }

    /** The number shown (for tests). */
    String shown() {
        return value.getText();
    }

    /** The nodes that show the reading (for tests). */
    HBox line() {
        return line;
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
