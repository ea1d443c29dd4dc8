package io.gpuforge.ui.common;

import javafx.scene.control.Labeled;
import javafx.scene.layout.Region;

/** Labels that wrap their text and keep the height of all its lines (a VBox would cut them to one line). */
public final class Wrapped {

    private Wrapped() {
    }

    public static <T extends Labeled> T wrapped(T l) {
        l.setWrapText(true);
        l.setMinHeight(Region.USE_PREF_SIZE);
        return l;
    }
}
