package io.gpuforge.ui.common;

import java.util.List;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import javafx.geometry.Pos;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.ListView;
import javafx.scene.control.ProgressIndicator;
import javafx.scene.control.ScrollPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;

/**
 * The lower half of every window that shows a host plan and applies it (a share's plan, passthrough's rollback):
 * the plan's detail, scrolling; the window's buttons with a busy mark; a line saying where it stands; the output of
 * each step as it runs. Its nodes' ids start with the window's ({@code plan-detail}, {@code rollback-output}).
 * FX thread.
 */
public final class ApplyPane {

    private final VBox detail = new VBox(8);
    private final ObservableList<String> output = FXCollections.observableArrayList();
    private final ProgressIndicator busy = new ProgressIndicator();
    private final Label state = Wrapped.wrapped(new Label());
    private final List<Node> nodes;

    /**
     * @param id the window's id, the first part of each node's
     * @param logHeight how tall the output is before the window grows
     * @param buttons the window's buttons, in order, before the busy mark
     */
    public ApplyPane(String id, double logHeight, Button... buttons) {
        busy.setPrefSize(20, 20);
        busy.setVisible(false);
        state.setId(id + "-state");
        HBox row = new HBox(10, buttons);
        row.getChildren().add(busy);
        row.setAlignment(Pos.CENTER_LEFT);
        detail.setId(id + "-detail");
        ScrollPane scroll = new ScrollPane(detail);
        scroll.setFitToWidth(true);
        VBox.setVgrow(scroll, Priority.ALWAYS);
        ListView<String> log = new ListView<>(output);
        log.setId(id + "-output");
        log.getStyleClass().add("output-log");
        log.setPrefHeight(logHeight);
        nodes = List.of(scroll, row, state, log);
    }

    /** Where the plan is shown. */
    public VBox detail() {
        return detail;
    }

    /** The lines of the steps' output. */
    public ObservableList<String> output() {
        return output;
    }

    /** Shown while something runs. */
    public ProgressIndicator busy() {
        return busy;
    }

    /** Where it stands, in a sentence. */
    public Label state() {
        return state;
    }

    /** The pane's parts, in order, for the window's column: detail, buttons, state, output. */
    public List<Node> nodes() {
        return nodes;
    }
}
