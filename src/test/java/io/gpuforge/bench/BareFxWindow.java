package io.gpuforge.bench;

import javafx.application.Application;
import javafx.scene.Scene;
import javafx.scene.control.Label;
import javafx.stage.Stage;

/**
 * The naive floor for start-up: a bare JavaFX window with one label, timed the same way as GPUForge (the benchmark
 * watches for its window on the X server and ends it).
 */
public final class BareFxWindow extends Application {

    @Override
    public void start(Stage stage) {
        stage.setScene(new Scene(new Label("bare"), 1200, 760));
        stage.show();
    }

    /** Plain main class: the java launcher refuses an Application subclass as main on the class path. */
    public static final class Main {
        public static void main(String[] args) {
            Application.launch(BareFxWindow.class, args);
        }
    }
}
