package io.gpuforge.testing;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicReference;
import javafx.embed.swing.SwingFXUtils;
import javafx.scene.Scene;
import javax.imageio.ImageIO;
import org.testfx.util.WaitForAsyncUtils;

/** Screenshots of the real window for the README: taken on the FX thread, written as PNG. */
public final class Screenshots {

    private Screenshots() {
    }

    /** The scene as an image, taken on the FX thread. */
    public static BufferedImage snapshot(Scene scene) {
        AtomicReference<BufferedImage> img = new AtomicReference<>();
        WaitForAsyncUtils.asyncFx(() -> img.set(SwingFXUtils.fromFXImage(scene.snapshot(null), null)));
        WaitForAsyncUtils.waitForFxEvents();
        return img.get();
    }

    /** Writes a PNG into {@code gpuforge.screenshots} ({@code target/screenshots} by default); returns its path. */
    public static Path writePng(BufferedImage image, String name) throws IOException {
        Path dir = Path.of(System.getProperty("gpuforge.screenshots", "target/screenshots"));
        Files.createDirectories(dir);
        Path file = dir.resolve(name);
        ImageIO.write(image, "png", file.toFile());
        return file;
    }
}
