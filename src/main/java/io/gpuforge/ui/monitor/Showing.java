package io.gpuforge.ui.monitor;

import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.value.ChangeListener;
import javafx.beans.value.ObservableBooleanValue;
import javafx.scene.Node;
import javafx.scene.Scene;
import javafx.stage.Window;

/** Whether a node is on screen: in a scene whose window shows, and {@code also} (its tab is selected). */
final class Showing {

    private final ReadOnlyBooleanWrapper value = new ReadOnlyBooleanWrapper();
    private final Node node;
    private final ObservableBooleanValue also;
    private final ChangeListener<Boolean> onShowing = (o, a, b) -> update();
    private final ChangeListener<Window> onWindow = (o, was, now) -> windowChanged(now);
    private Window watched;

    Showing(Node node, ObservableBooleanValue also) {
        this.node = node;
        this.also = also;
        node.sceneProperty().addListener((o, was, now) -> {
            if (was != null) {
                was.windowProperty().removeListener(onWindow);
            }
            watch(now);
        });
        also.addListener((o, a, b) -> update());
        watch(node.getScene());
    }

    private void watch(Scene scene) {
        if (scene != null) {
            scene.windowProperty().addListener(onWindow);
            windowChanged(scene.getWindow());
        } else {
            windowChanged(null);
        }
    }

    private void windowChanged(Window now) {
        if (watched != null) {
            watched.showingProperty().removeListener(onShowing);
        }
        watched = now;
        if (now != null) {
            now.showingProperty().addListener(onShowing);
        }
        update();
    }

    private void update() {
        Scene s = node.getScene();
        value.set(also.get() && s != null && s.getWindow() != null && s.getWindow().isShowing());
    }

    ReadOnlyBooleanProperty property() {
        return value.getReadOnlyProperty();
    }
}
