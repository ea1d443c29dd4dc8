package io.gpuforge.app.settings;

/** Last position and size of the main window, in screen coordinates. */
public record WindowBounds(double x, double y, double width, double height, boolean maximized) {

    public static final double MIN_WIDTH = 640;
    public static final double MIN_HEIGHT = 420;

    public WindowBounds {
        if (!Double.isFinite(x) || !Double.isFinite(y)) {
            throw new IllegalArgumentException("window position must be finite");
        }
        width = Double.isFinite(width) ? Math.max(MIN_WIDTH, width) : 1200;
        height = Double.isFinite(height) ? Math.max(MIN_HEIGHT, height) : 760;
    }
}
