package io.gpuforge.testing;

import java.util.ArrayDeque;
import java.util.Deque;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.testfx.api.FxToolkit;
import org.testfx.framework.junit5.ApplicationExtension;

/**
 * A GUI test's set-up and clean-up in one place: TestFX's application extension ({@code @Start} gets the stage, test
 * methods an {@code FxRobot}), and after each test every stage closed, then what the test opened with
 * {@link #closing} closed, the last opened first, even when a test failed half-way. Register it once per class:
 * {@code @RegisterExtension static final GuiWindow WINDOW = new GuiWindow();}.
 */
public final class GuiWindow extends ApplicationExtension {

    private final Deque<AutoCloseable> opened = new ArrayDeque<>();

    /** {@code resource}, to be closed after the test (a fixture, a server, a simulator). */
    public synchronized <T extends AutoCloseable> T closing(T resource) {
        opened.push(resource);
        return resource;
    }

    @Override
    public void afterEach(ExtensionContext context) throws Exception {
        Exception failed = null;
        try {
            FxToolkit.cleanupStages();
        } catch (Exception e) {
            failed = e;
        }
        try {
            super.afterEach(context);
        } catch (Exception e) {
            failed = add(failed, e);
        }
        while (true) {
            AutoCloseable next;
            synchronized (this) {
                next = opened.poll();
            }
            if (next == null) {
                break;
            }
            try {
                next.close();
            } catch (Exception e) {
                failed = add(failed, e);
            }
        }
        if (failed != null) {
            throw failed;
        }
    }

    private static Exception add(Exception first, Exception next) {
        if (first == null) {
            return next;
        }
        first.addSuppressed(next);
        return first;
    }
}
