package io.gpuforge.ui.common;

/** A view that lets go of what it listens to when its tab closes. */
@FunctionalInterface
public interface Disposable {

    void dispose();

    /** Disposes {@code node} if it is a disposable view. */
    static void of(Object node) {
        if (node instanceof Disposable) {
            ((Disposable) node).dispose();
        }
    }
}
