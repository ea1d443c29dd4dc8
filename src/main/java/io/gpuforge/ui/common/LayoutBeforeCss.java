package io.gpuforge.ui.common;

import java.util.List;
import javafx.scene.Parent;
import javafx.scene.Scene;
import javafx.scene.layout.Region;

/**
 * Lays out a window's busiest virtualised controls (its tree, its lists and tables that fill in from the background)
 * at the start of each pulse, before that pulse's CSS pass, rather than in its layout pass after it.
 *
 * <p>Why: a {@code VirtualFlow} gives its rows their items while it is laid out, and a row whose index, item or state
 * changes needs its CSS again. In the layout pass that comes after the pulse's CSS pass, so the scene's root is left
 * marked for CSS when the pulse ends; the next pulse then processes that CSS, finds nothing to draw differently, and
 * JavaFX repaints the frame with no dirty region: the whole window. In the software pipeline that is 35–85 ms for the
 * main window (measured with {@code -Djavafx.pulseLogger}: paints of 200–270 nodes with no dirty region listed, each
 * after a pulse whose render graph was clean), after many of the slices that fill a 2,000-VM tree and after tasks
 * were listed. Laid out first, the rows are styled by the same pulse's CSS pass, and the next frame repaints only the
 * rows.
 *
 * <p>A control that is not in this scene, or not yet given a size, is left to the layout pass. One that needs no layout
 * costs nothing. FX thread.
 */
public final class LayoutBeforeCss {

    private final List<Parent> controls;

    public LayoutBeforeCss(List<? extends Parent> controls) {
        this.controls = List.copyOf(controls);
    }

    /** From the next pulse on, each pulse of {@code scene} lays the controls out before its CSS pass. */
    public void install(Scene scene) {
        scene.addPreLayoutPulseListener(() -> layOut(scene));
    }

    /** Lays out those of the controls that are in {@code scene} and have a size (what each pulse does first). */
    void layOut(Scene scene) {
        for (Parent p : controls) {
            if (p.getScene() == scene && (!(p instanceof Region) || ((Region) p).getWidth() > 0)) {
                p.layout();
            }
        }
    }
}
