package io.gpuforge.ui.monitor;

import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
import javafx.beans.value.ObservableBooleanValue;

/**
 * Draws the monitor's charts that are on screen. All six were drawn in each frame that brought readings, three of
 * them scrolled out of sight in a window of ordinary height (issue 47): now a chart out of sight keeps its new
 * content and is drawn when it is scrolled into view (in the next frame). Charts on screen are drawn together, in
 * the frame that brought their readings: drawing them a frame apart instead made as many more frames to paint and
 * copy to the screen without shortening the longest one. FX thread.
 */
final class ChartPainter {

    private final List<GpuChart> charts;
    private final Predicate<GpuChart> onScreen;
    private final ObservableBooleanValue showing;
    /** Charts whose content changed since they were last drawn, in the order they are laid out. */
    private final Set<GpuChart> stale = new LinkedHashSet<>();
    /** Draws what came into view in the next frame, and when the view shows again. */
    private final FrameDriver later;

    /**
     * @param charts   in the order they are laid out, top first
     * @param onScreen whether a chart can be seen now (inside the scroll pane's viewport)
     * @param showing  whether the charts' view shows at all
     */
    ChartPainter(List<GpuChart> charts, Predicate<GpuChart> onScreen, ObservableBooleanValue showing) {
        this.charts = List.copyOf(charts);
        this.onScreen = onScreen;
        this.showing = showing;
        this.later = new FrameDriver(showing, this::drawOnScreen);
    }

    /** Every chart's content changed: those on screen are drawn now, the others once they come into view. */
    void allChanged() {
        stale.addAll(charts);
        drawOnScreen();
    }

    /** The viewport moved or was resized: stale charts that came into view are drawn in the next frame. */
    void viewChanged() {
        if (!stale.isEmpty()) {
            later.request();
        }
    }

    /** Draws the stale charts on screen (none while the view is hidden). */
    private void drawOnScreen() {
        if (!showing.get()) {
            return;
        }
        for (Iterator<GpuChart> it = stale.iterator(); it.hasNext(); ) {
            GpuChart c = it.next();
            if (onScreen.test(c)) {
                it.remove();
                c.draw();
            }
        }
    }

    void dispose() {
        later.dispose();
        stale.clear();
    }
}
