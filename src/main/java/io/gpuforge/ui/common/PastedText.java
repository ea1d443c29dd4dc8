package io.gpuforge.ui.common;

import java.io.File;
import java.util.function.Consumer;
import java.util.function.Supplier;
import javafx.geometry.Pos;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.ProgressIndicator;
import javafx.scene.control.TextArea;
import javafx.scene.layout.HBox;
import javafx.stage.FileChooser;
import javafx.stage.Window;
import org.kordamp.ikonli.feather.Feather;

/**
 * A text to paste, or to open from a file, and the button that reads it (Diagnose, Analyse), with a busy spinner:
 * the input of a window that reads a log or a listing. Ids {@code <prefix>-text}, {@code -open} and {@code -<run>},
 * the last word of the run button's key. FX thread.
 */
public final class PastedText {

    /** The keys of the text's prompt, the open button and the run button. */
    public record Keys(String prompt, String open, String run) {
    }

    private final TextArea text = new TextArea();
    private final ProgressIndicator busy = new ProgressIndicator();
    private final HBox buttons;

    /**
     * @param opened gets the file the user chose (the window reads it off the FX thread)
     * @param read   reads what the text holds
     */
    public PastedText(I18n i18n, String prefix, Keys keys, Feather runIcon, Supplier<Window> owner,
                      Consumer<File> opened, Runnable read) {
        text.setId(prefix + "-text");
        text.setPromptText(i18n.get(keys.prompt()));
        Button open = new Button(i18n.get(keys.open()), Icons.of(Feather.FOLDER));
        open.setId(prefix + "-open");
        open.setOnAction(e -> {
            FileChooser chooser = new FileChooser();
            chooser.setTitle(i18n.get(keys.open()));
            File f = chooser.showOpenDialog(owner.get());
            if (f != null) {
                opened.accept(f);
            }
        });
        Button go = new Button(i18n.get(keys.run()), Icons.of(runIcon));
        go.setId(prefix + "-" + keys.run().substring(keys.run().lastIndexOf('.') + 1));
        go.getStyleClass().add("accent");
        go.setDefaultButton(true);
        go.disableProperty().bind(text.textProperty().isEmpty().or(busy.visibleProperty()));
        go.setOnAction(e -> read.run());
        busy.setPrefSize(20, 20);
        busy.setVisible(false);
        buttons = new HBox(10, open, go, busy);
        buttons.setAlignment(Pos.CENTER_LEFT);
    }

    public TextArea text() {
        return text;
    }

    /** Shown while the window reads; the run button waits meanwhile. */
    public void busy(boolean on) {
        busy.setVisible(on);
    }

    /** The open and run buttons and the spinner, to put under the text (with more beside them, as {@code extra}). */
    public HBox buttons(Node... extra) {
        buttons.getChildren().addAll(extra);
        return buttons;
    }
}
