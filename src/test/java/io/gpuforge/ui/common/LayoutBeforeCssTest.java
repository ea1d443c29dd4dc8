package io.gpuforge.ui.common;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.javafx.tk.TKPulseListener;
import com.sun.javafx.tk.Toolkit;
import java.lang.reflect.Field;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javafx.animation.AnimationTimer;
import javafx.application.Platform;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import javafx.scene.Node;
import javafx.scene.Parent;
import javafx.scene.Scene;
import javafx.scene.control.Label;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.control.TreeItem;
import javafx.scene.control.TreeView;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxToolkit;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;

/**
 * A tree that gets a child every frame (a slice of a cluster's inventory) and a table given rows between frames (the
 * tasks table as background tasks start): with {@link LayoutBeforeCss}, no pulse ends with the scene's root marked for
 * CSS, the state after which JavaFX repaints the next frame with no dirty region, i.e. the whole window (a 35–85 ms software paint for the
 * main window). What a user sees is that paint in the render thread's timing; this reads its cause at the end of each
 * pulse (after the scene's own pulse, where JavaFX marks the root): the root's dirty bits, a private field, through
 * the toolkit's internal pulse listener. Modena, the default theme. The test without the class checks the premise on
 * this JavaFX: if a later JavaFX no longer leaves the root marked, it fails, and the class may go.
 */
@Tag("ui")
@ExtendWith(ApplicationExtension.class)
class LayoutBeforeCssTest {

    private static final int FRAMES = 40;

    private Stage stage;
    /** Held: the toolkit keeps its pulse listeners weakly. */
    private TKPulseListener endOfPulse;

    @Start
    void start(Stage stage) {
        this.stage = stage;
    }

    @AfterEach
    void close() throws Exception {
        TKPulseListener l = endOfPulse;
        if (l != null) {
            Platform.runLater(() -> Toolkit.getToolkit().removePostSceneTkPulseListener(l));
        }
        FxToolkit.cleanupStages();
    }

    @Test
    void aTreeFilledInOneSliceAFrameLeavesNoPulseWithTheRootMarkedForCss() throws Exception {
        Tree tree = new Tree();
        assertThat(markedPulses(tree.view, true, tree::slicePerFrame)).isZero();
        assertThat(tree.children()).isEqualTo(FRAMES);
    }

    /** Why the class is there: without it the same tree leaves most of these pulses marked (this JavaFX). */
    @Test
    void withoutItTheSameTreeLeavesTheRootMarkedForCss() throws Exception {
        Tree tree = new Tree();
        assertThat(markedPulses(tree.view, false, tree::slicePerFrame)).isGreaterThan(FRAMES / 2);
    }

    @Test
    void aTableGivenRowsBetweenFramesLeavesNoPulseWithTheRootMarkedForCss() throws Exception {
        Events events = new Events();
        assertThat(markedPulses(events.view, true, events::betweenFrames)).isZero();
        assertThat(events.rows).hasSize(10 + FRAMES);
    }

    /** Eight nodes, every other one expanded; a child is added to one of them each frame (an AnimationTimer). */
    private static final class Tree {
        final TreeItem<String> root = new TreeItem<>("cluster");
        final TreeView<String> view = new TreeView<>(root);

        Tree() {
            root.setExpanded(true);
            for (int i = 0; i < 8; i++) {
                TreeItem<String> node = new TreeItem<>("node " + i);
                node.setExpanded(i % 2 == 0);
                root.getChildren().add(node);
            }
        }

        void slicePerFrame(CountDownLatch done) {
            AtomicInteger n = new AtomicInteger();
            new AnimationTimer() {
                @Override
                public void handle(long now) {
                    int i = n.incrementAndGet();
                    root.getChildren().get(i % 8).getChildren().add(0, new TreeItem<>("vm " + i));
                    if (i == FRAMES) {
                        stop();
                        done.countDown();
                    }
                }
            }.start();
        }

        int children() {
            return root.getChildren().stream().mapToInt(t -> t.getChildren().size()).sum();
        }
    }

    /** The tasks table's way: a row added at the top through runLater as each background task starts. */
    private static final class Events {
        final ObservableList<String> rows = FXCollections.observableArrayList();
        final TableView<String> view = new TableView<>(rows);

        Events() {
            for (int i = 0; i < 10; i++) {
                rows.add("task " + i);
            }
            TableColumn<String, String> name = new TableColumn<>("Task");
            name.setCellValueFactory(c -> new ReadOnlyStringWrapper(c.getValue()));
            TableColumn<String, String> state = new TableColumn<>("State");
            state.setCellValueFactory(c -> new ReadOnlyStringWrapper(c.getValue().length() % 2 == 0 ? "running"
                    : "done"));
            view.getColumns().setAll(List.of(name, state));
        }

        void betweenFrames(CountDownLatch done) {
            Thread t = new Thread(() -> {
                for (int i = 1; i <= FRAMES; i++) {
                    String row = "task " + (10 + i);
                    Platform.runLater(() -> rows.add(0, row));
                    try {
                        Thread.sleep(20);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
                Platform.runLater(done::countDown);
            }, "tasks");
            t.setDaemon(true);
            t.start();
        }
    }

    /** How many pulses end with the root marked for CSS while {@code changes} runs (the first frames not counted). */
    private int markedPulses(Parent control, boolean layOutFirst, java.util.function.Consumer<CountDownLatch> changes)
            throws Exception {
        Field dirtyBits = Node.class.getDeclaredField("dirtyBits");
        dirtyBits.setAccessible(true);
        AtomicInteger marked = new AtomicInteger();
        AtomicInteger phase = new AtomicInteger();
        AtomicInteger warm = new AtomicInteger();
        CountDownLatch shown = new CountDownLatch(1);
        CountDownLatch ready = new CountDownLatch(1);
        CountDownLatch done = new CountDownLatch(1);
        Platform.runLater(() -> {
            Scene scene = new Scene(new VBox(new Label("GPUForge"), control), 640, 400);
            if (layOutFirst) {
                new LayoutBeforeCss(List.of(control)).install(scene);
            }
            stage.setScene(scene);
            stage.show();
            endOfPulse = () -> {
                try {
                    // the window's first frames (its first CSS and layout) are not counted: three laid-out pulses
                    if (phase.get() == 0 && ((Region) control).getWidth() > 0 && warm.incrementAndGet() == 3) {
                        ready.countDown();
                    }
                    if (phase.get() == 1 && String.valueOf(dirtyBits.get(scene.getRoot())).contains("NODE_CSS")) {
                        marked.incrementAndGet();
                    }
                } catch (IllegalAccessException e) {
                    throw new IllegalStateException(e);
                }
            };
            Toolkit.getToolkit().addPostSceneTkPulseListener(endOfPulse);
            shown.countDown();
        });
        assertThat(shown.await(10, TimeUnit.SECONDS)).isTrue();
        // a pulse comes only when something asks for one: the animation below keeps them coming while it waits
        AnimationTimer keepPulsing = new AnimationTimer() {
            @Override
            public void handle(long now) {
            }
        };
        Platform.runLater(keepPulsing::start);
        assertThat(ready.await(20, TimeUnit.SECONDS)).as("the window laid itself out").isTrue();
        Platform.runLater(keepPulsing::stop);
        Platform.runLater(() -> {
            phase.set(1);
            changes.accept(done);
        });
        assertThat(done.await(20, TimeUnit.SECONDS)).isTrue();
        Thread.sleep(100); // the last change's pulses
        CountDownLatch stopped = new CountDownLatch(1);
        Platform.runLater(() -> {
            phase.set(2);
            stopped.countDown();
        });
        assertThat(stopped.await(10, TimeUnit.SECONDS)).isTrue();
        return marked.get();
    }
}
