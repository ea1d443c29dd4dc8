package io.gpuforge.boot;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.Configurator;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class HeldLogConfigurationTest {

    @AfterEach
    void letGo() {
        HeldLogConfiguration.release();
    }

    /** A thread, held and not started yet, that will configure a new Logback context; and what it returns. */
    private record HeldThread(Thread thread, CompletableFuture<Configurator.ExecutionStatus> status) {
    }

    private static HeldThread heldThread() {
        HeldLogConfiguration held = new HeldLogConfiguration();
        LoggerContext context = new LoggerContext();
        held.setContext(context);
        CompletableFuture<Configurator.ExecutionStatus> status = new CompletableFuture<>();
        Thread t = new Thread(() -> status.complete(held.configure(context)), "held-configuration");
        HeldLogConfiguration.hold(t);
        return new HeldThread(t, status);
    }

    @Test
    void heldTheConfigurationWaitsForTheFirstFrameThenLetsLogbacksOwnConfiguratorsRun() throws Exception {
        HeldThread h = heldThread();
        Thread t = h.thread();
        CompletableFuture<Configurator.ExecutionStatus> status = h.status();
        t.start();
        while (t.getState() != Thread.State.TIMED_WAITING && !status.isDone()) {
            Thread.onSpinWait();
        }
        assertThat(status).as("waiting for the first frame").isNotDone();

        HeldLogConfiguration.release();
        assertThat(status.get(10, TimeUnit.SECONDS)).isEqualTo(Configurator.ExecutionStatus.INVOKE_NEXT_IF_ANY);
    }

    @Test
    void anyOtherThreadThanTheHeldOneConfiguresAtOnce() throws Exception {
        // the FX thread (or the settings' reader) asking for the first logger before the logging thread did: it
        // must not wait for a first frame that waits on it
        Thread logging = new Thread(() -> { }, "logging-not-started");
        HeldLogConfiguration.hold(logging);
        HeldLogConfiguration held = new HeldLogConfiguration();
        LoggerContext context = new LoggerContext();
        held.setContext(context);
        // well under the longest hold (10 s): a wait would show as a timeout here
        assertThat(CompletableFuture.supplyAsync(() -> held.configure(context)).get(5, TimeUnit.SECONDS))
                .isEqualTo(Configurator.ExecutionStatus.INVOKE_NEXT_IF_ANY);
    }

    @Test
    void onceReleasedTheHeldThreadDoesNotWait() throws Exception {
        HeldThread h = heldThread();
        HeldLogConfiguration.release();
        h.thread().start();
        assertThat(h.status().get(5, TimeUnit.SECONDS)).isEqualTo(Configurator.ExecutionStatus.INVOKE_NEXT_IF_ANY);
    }
}
