package io.gpuforge.ui.common;

import javafx.scene.Scene;

/** One-shot work tied to a scene's pulses. FX thread. */
public final class Pulses {

    private Pulses() {
    }

    /** Runs {@code action} once, right after the next layout pass of {@code scene} (its frame is drawn after it). */
    public static void afterNextLayout(Scene scene, Runnable action) {
        Runnable[] once = new Runnable[1];
        once[0] = () -> {
            scene.removePostLayoutPulseListener(once[0]);
            action.run();
        };
        scene.addPostLayoutPulseListener(once[0]);
    }
}
