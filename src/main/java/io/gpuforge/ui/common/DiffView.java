package io.gpuforge.ui.common;

import io.gpuforge.domain.passthrough.PassthroughPlan;
import java.util.List;
import javafx.scene.control.Label;
import javafx.scene.layout.VBox;

/** Unified diffs of a plan (passthrough, sharing, a migration)'s files, one label per line: additions green, removals red, hunks accented. */
public final class DiffView extends VBox {

    public DiffView(List<PassthroughPlan.FileEdit> edits) {
        this(edits.stream().map(PassthroughPlan.FileEdit::diff).reduce("", (a, b) -> a + "\n" + b));
    }

    /** A unified diff given as text (a VM's configuration, say). */
    public DiffView(String diff) {
        getStyleClass().add("diff-view");
        setId("pt-diff");
        for (String line : diff.split("\n", -1)) {
            if (line.isEmpty()) {
                continue;
            }
            Label l = new Label(line);
            l.getStyleClass().addAll("diff-line", style(line));
            l.setMaxWidth(Double.MAX_VALUE);
            getChildren().add(l);
        }
    }

    public static String style(String line) {
        if (line.startsWith("+++") || line.startsWith("---")) {
            return "diff-file";
        }
        if (line.startsWith("@@")) {
            return "diff-hunk";
        }
        if (line.startsWith("+")) {
            return "diff-add";
        }
        return line.startsWith("-") ? "diff-del" : "diff-context";
    }
}
