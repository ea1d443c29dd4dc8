package io.gpuforge.testing;

import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import javafx.scene.Node;
import javafx.scene.Parent;
import javafx.scene.control.Labeled;
import org.testfx.util.WaitForAsyncUtils;

/**
 * Reads what a window shows on the FX thread, for the GUI tests: a view sets its labels, buttons and lists together
 * there, and a read from the test's own thread can see one of them changed and the next not yet. Never from the FX
 * thread itself (it would wait for itself).
 */
public final class FxRead {

    private FxRead() {
    }

    /** Every text a node and its children show as labels and buttons, a line each, depth first. FX thread. */
    public static String texts(Node n) {
        StringBuilder out = new StringBuilder(n instanceof Labeled ? ((Labeled) n).getText() + "\n" : "");
        if (n instanceof Parent) {
            ((Parent) n).getChildrenUnmodifiable().forEach(c -> out.append(texts(c)));
        }
        return out.toString();
    }

    public static <T> T onFx(Callable<T> read) {
        try {
            return WaitForAsyncUtils.asyncFx(read).get(10, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException) {
                throw (RuntimeException) e.getCause();
            }
            if (e.getCause() instanceof Error) {
                throw (Error) e.getCause();
            }
            throw new IllegalStateException(e.getCause());
        } catch (InterruptedException | TimeoutException e) {
            throw new IllegalStateException(e);
        }
    }
}
