package io.gpuforge.testing;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.concurrent.atomic.AtomicReference;
import javafx.embed.swing.SwingFXUtils;
import javafx.scene.Node;
import javafx.scene.Parent;
import javafx.scene.Scene;
import javafx.scene.text.Text;
import javax.imageio.ImageIO;
import org.testfx.util.WaitForAsyncUtils;

/**
 * Screenshots of the real window for the README: taken on the FX thread, written as PNG. A screenshot of the window
 * in Chinese (its name holds {@code -zh}) is also read: the text it shows must hold no English sentence
 * ({@link LatinText}), outside what is data rather than words (text fields, logs, code, diffs). In every language,
 * no table cell may be shown cut short while its table has width to spare ({@link ClippedCells}).
 */
public final class Screenshots {

    /** Style classes whose text is data (a log, code, a diff, what the user typed), not the window's words. */
    private static final Set<String> DATA = Set.of("text-input", "diagnose-line-text", "diagnose-code", "diagnose-log",
            "diff-view", "monospace", "output-log", "tooltip");

    /** The cells each snapshot showed cut while their table had room to spare. */
    private static final Map<BufferedImage, List<String>> CLIPPED = java.util.Collections.synchronizedMap(
            new WeakHashMap<>());

    /** The text each snapshot showed, for the Chinese check when it is written. */
    private static final Map<BufferedImage, List<String>> SHOWN = java.util.Collections.synchronizedMap(
            new WeakHashMap<>());

    private Screenshots() {
    }

    /** The scene as an image, taken on the FX thread. */
    public static BufferedImage snapshot(Scene scene) {
        AtomicReference<BufferedImage> img = new AtomicReference<>();
        WaitForAsyncUtils.asyncFx(() -> {
            BufferedImage taken = SwingFXUtils.fromFXImage(scene.snapshot(null), null);
            SHOWN.put(taken, shown(scene.getRoot()));
            CLIPPED.put(taken, ClippedCells.in(scene.getRoot()));
            img.set(taken);
        });
        WaitForAsyncUtils.waitForFxEvents();
        return img.get();
    }

    /** The words a scene shows: every visible text node's text, outside data (logs, code, fields). FX thread. */
    public static List<String> shown(Parent root) {
        List<String> out = new ArrayList<>();
        collect(root, out);
        return out;
    }

    private static void collect(Node n, List<String> out) {
        if (!n.isVisible() || n.getStyleClass().stream().anyMatch(DATA::contains)) {
            return;
        }
        if (n instanceof Text t && t.getText() != null && !t.getText().isBlank()) {
            out.add(t.getText());
        }
        if (n instanceof Parent p) {
            p.getChildrenUnmodifiable().forEach(c -> collect(c, out));
        }
    }

    /** The English sentences among the words a snapshot showed (none known: empty). */
    public static List<String> english(BufferedImage image) {
        return SHOWN.getOrDefault(image, List.of()).stream().flatMap(s -> LatinText.sentences(s).stream()
                .map(x -> x + "  (in: " + s + ")")).toList();
    }

    /** Writes a PNG into {@code gpuforge.screenshots} ({@code target/screenshots} by default); returns its path. */
    public static Path writePng(BufferedImage image, String name) throws IOException {
        List<String> clipped = CLIPPED.getOrDefault(image, List.of());
        if (!clipped.isEmpty()) {
            throw new AssertionError(name + " shows cells cut short beside spare width:\n  "
                    + String.join("\n  ", clipped));
        }
        if (name.contains("-zh")) {
            List<String> english = english(image);
            if (!english.isEmpty()) {
                throw new AssertionError(name + " shows English in the Chinese window:\n  "
                        + String.join("\n  ", english));
            }
        }
        Path dir = Path.of(System.getProperty("gpuforge.screenshots", "target/screenshots"));
        Files.createDirectories(dir);
        Path file = dir.resolve(name);
        ImageIO.write(image, "png", file.toFile());
        return file;
    }
}
