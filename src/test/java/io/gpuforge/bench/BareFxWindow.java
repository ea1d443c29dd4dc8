package io.gpuforge.bench;

import java.lang.management.ManagementFactory;
import javafx.application.Application;
import javafx.application.Platform;
import javafx.scene.Scene;
import javafx.scene.control.Label;
import javafx.stage.Stage;

/** The naive floor for start-up: a bare JavaFX window with one label, timed the same way as GPUForge. */
public final class BareFxWindow extends Application {

    @Override
    public void start(Stage stage) {
        Scene scene = new Scene(new Label("bare"), 1200, 760);
        Runnable[] first = new Runnable[1];
        first[0] = () -> {
            scene.removePostLayoutPulseListener(first[0]);
            long ms = System.currentTimeMillis() - ManagementFactory.getRuntimeMXBean().getStartTime();
            System.out.println("FIRST_FRAME_MS=" + ms);
            Platform.runLater(Platform::exit);
        };
        stage.setScene(scene);
        stage.show();
        scene.addPostLayoutPulseListener(first[0]);
    }

    /** Plain main class: the java launcher refuses an Application subclass as main on the class path. */
    public static final class Main {
        public static void main(String[] args) {
            Application.launch(BareFxWindow.class, args);
        }
    }
}
