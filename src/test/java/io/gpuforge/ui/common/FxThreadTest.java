package io.gpuforge.ui.common;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javafx.application.Platform;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** A background thread's question answered on the FX thread, a failed one answered "otherwise", and never on FX. */
@org.junit.jupiter.api.Tag("ui")
class FxThreadTest {

    @BeforeAll
    static void toolkit() throws Exception {
        org.testfx.api.FxToolkit.registerPrimaryStage();
    }

    @Test
    void theAnswerComesFromTheFxThreadAndAFailureIsOtherwise() throws Exception {
        assertThat(FxThread.askAndWait("a question", () -> Platform.isFxApplicationThread() ? "on FX" : "elsewhere",
                "none")).isEqualTo("on FX");
        assertThat(FxThread.<String>askAndWait("a question", () -> {
            throw new IllegalStateException("the dialog broke");
        }, "none")).isEqualTo("none");
    }

    @Test
    void askingOnTheFxThreadIsRefusedRatherThanWaitingForItself() throws Exception {
        CompletableFuture<Throwable> refused = new CompletableFuture<>();
        Platform.runLater(() -> {
            try {
                FxThread.askAndWait("the host key prompt", () -> true, false);
                refused.complete(null);
            } catch (RuntimeException e) {
                refused.complete(e);
            }
        });
        assertThat(refused.get(30, TimeUnit.SECONDS)).isInstanceOf(IllegalStateException.class)
                .hasMessage("the host key prompt called on the FX thread");
    }
}
