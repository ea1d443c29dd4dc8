package io.gpuforge.boot;

import io.gpuforge.app.host.OsFamily;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Which of JavaFX's rendering pipelines to start with on Linux. JavaFX tries its OpenGL pipeline (es2) first and
 * falls back to its software one; where the machine has no graphics device at all (no {@code /dev/dri} node, no
 * NVIDIA device: a container, a VNC or remote-desktop session on a server, Xvfb) OpenGL can only be Mesa's software
 * renderer, which JavaFX refuses after loading it, about 0.1 s before the first frame. There the software pipeline
 * is asked for at once. A device present, another system, or a {@code prism.order} of the user's own: JavaFX decides
 * as always.
 */
final class RenderingPipeline {

    static final String PRISM_ORDER = "prism.order";

    private RenderingPipeline() {
    }

    /** The {@code prism.order} to set before the toolkit starts, if any. */
    static Optional<String> order(OsFamily os, String userOrder, Path dev) {
        if (os != OsFamily.LINUX || (userOrder != null && !userOrder.isBlank())) {
            return Optional.empty();
        }
        return hasGraphicsDevice(dev) ? Optional.empty() : Optional.of("sw");
    }

    /** Sets {@code prism.order} where {@link #order} says so; returns what it set. */
    static Optional<String> choose() {
        Optional<String> order = order(OsFamily.current(), System.getProperty(PRISM_ORDER), Path.of("/dev"));
        order.ifPresent(o -> System.setProperty(PRISM_ORDER, o));
        return order;
    }

    /**
     * What the log says of a start without a graphics device: the pipeline asked for and whether GTK was kept from
     * loading OpenGL ({@code GDK_GL=disable}, which the packaged launchers set where they find none of the devices
     * this class looks for; a JVM cannot set its own environment before GTK reads it).
     */
    static String describe(String order, String gdkGl) {
        String gtk = gdkGl != null && gdkGl.contains("disable") ? "GTK without OpenGL (GDK_GL=" + gdkGl + ")"
                : "GTK loads OpenGL to choose its visuals (GDK_GL=disable, as the packaged launchers set, saves that)";
        return "No graphics device (/dev/dri, /dev/nvidia*): JavaFX's software pipeline (prism.order=" + order
                + ") without trying OpenGL first; " + gtk;
    }

    private static boolean hasGraphicsDevice(Path dev) {
        if (Files.exists(dev.resolve("nvidiactl")) || Files.exists(dev.resolve("nvidia0"))) {
            return true;
        }
        Path dri = dev.resolve("dri");
        if (!Files.isDirectory(dri)) {
            return false;
        }
        try (DirectoryStream<Path> nodes = Files.newDirectoryStream(dri)) {
            return nodes.iterator().hasNext();
        } catch (IOException e) {
            return true; // cannot tell: let JavaFX try
        }
    }
}
