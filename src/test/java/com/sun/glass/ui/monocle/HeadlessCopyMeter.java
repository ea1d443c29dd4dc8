package com.sun.glass.ui.monocle;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Meters the CPU time the FX thread spends copying each painted window into Monocle's headless screen
 * ({@code Framebuffer.composePixels}, in Java), so that the benchmarks tell that copy from the windows' own work. A
 * desktop does not pay it: the GPU pipeline presents its back buffer, the software one hands the pixels to the
 * windowing system natively. {@link #install} wraps the screen TestFX's headless platform made (test code: Monocle's
 * types are package-private, hence this package).
 */
public final class HeadlessCopyMeter implements NativeScreen {

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private static final AtomicLong CPU_NANOS = new AtomicLong();
    private static final AtomicLong COPIES = new AtomicLong();
    private final NativeScreen screen;

    private HeadlessCopyMeter(NativeScreen screen) {
        this.screen = screen;
    }

    /** Wraps the headless screen once; on the FX thread, after the toolkit started. */
    public static synchronized void install() {
        NativePlatform platform = NativePlatformFactory.getNativePlatform();
        NativeScreen current = platform.getScreen();
        if (!(current instanceof HeadlessCopyMeter)) {
            List<NativeScreen> screens = new ArrayList<>(platform.screens);
            screens.set(screens.indexOf(current), new HeadlessCopyMeter(current));
            platform.screens = screens;
        }
    }

    /** CPU time spent so far copying painted windows into the headless screen. */
    public static long cpuNanos() {
        return CPU_NANOS.get();
    }

    /** How many window copies so far. */
    public static long copies() {
        return COPIES.get();
    }

    @Override
    public void uploadPixels(Buffer b, int x, int y, int width, int height, float alpha) {
        long t0 = THREADS.getCurrentThreadCpuTime();
        screen.uploadPixels(b, x, y, width, height, alpha);
        CPU_NANOS.addAndGet(THREADS.getCurrentThreadCpuTime() - t0);
        COPIES.incrementAndGet();
    }

    @Override
    public int getDepth() {
        return screen.getDepth();
    }

    @Override
    public int getNativeFormat() {
        return screen.getNativeFormat();
    }

    @Override
    public int getWidth() {
        return screen.getWidth();
    }

    @Override
    public int getHeight() {
        return screen.getHeight();
    }

    @Override
    public int getOffsetX() {
        return screen.getOffsetX();
    }

    @Override
    public int getOffsetY() {
        return screen.getOffsetY();
    }

    @Override
    public int getDPI() {
        return screen.getDPI();
    }

    @Override
    public long getNativeHandle() {
        return screen.getNativeHandle();
    }

    @Override
    public void shutdown() {
        screen.shutdown();
    }

    @Override
    public void swapBuffers() {
        screen.swapBuffers();
    }

    @Override
    public ByteBuffer getScreenCapture() {
        return screen.getScreenCapture();
    }

    @Override
    public float getScale() {
        return screen.getScale();
    }
}
