package io.gpuforge.ui.common;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.function.Supplier;
import javafx.application.Platform;

/** What a background thread asks the FX thread for. */
public final class FxThread {

    private FxThread() {
    }

    /**
     * Asks on the FX thread (a dialog) and waits for the answer; {@code otherwise} when asking failed or the wait was
     * interrupted (the interrupt kept). Refused on the FX thread, which would wait for itself.
     *
     * @param what what asks, for the refusal's message
     */
    public static <T> T askAndWait(String what, Supplier<T> ask, T otherwise) {
        if (Platform.isFxApplicationThread()) {
            throw new IllegalStateException(what + " called on the FX thread");
        }
        CompletableFuture<T> answer = new CompletableFuture<>();
        Platform.runLater(() -> {
            try {
                answer.complete(ask.get());
            } catch (RuntimeException e) {
                answer.completeExceptionally(e);
            }
        });
        try {
            return answer.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return otherwise;
        } catch (ExecutionException e) {
            return otherwise;
        }
    }
}
