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

    @Test
    void heldTheConfigurationWaitsForTheFirstFrameThenLetsLogbacksOwnConfiguratorsRun() throws Exception {
        HeldLogConfiguration.hold();
        HeldLogConfiguration held = new HeldLogConfiguration();
        LoggerContext context = new LoggerContext();
        held.setContext(context);
        CompletableFuture<Configurator.ExecutionStatus> status = new CompletableFuture<>();
        Thread t = new Thread(() -> status.complete(held.configure(context)), "held-configuration");
        t.start();
        while (t.getState() != Thread.State.TIMED_WAITING && !status.isDone()) {
            Thread.onSpinWait();
        }
        assertThat(status).as("waiting for the first frame").isNotDone();

        HeldLogConfiguration.release();
        assertThat(status.get(10, TimeUnit.SECONDS)).isEqualTo(Configurator.ExecutionStatus.INVOKE_NEXT_IF_ANY);
    }

    @Test
    void onceReleasedALaterConfigurationDoesNotWait() throws Exception {
        HeldLogConfiguration.hold();
        HeldLogConfiguration.release();
        HeldLogConfiguration held = new HeldLogConfiguration();
        LoggerContext context = new LoggerContext();
        held.setContext(context);
        assertThat(CompletableFuture.supplyAsync(() -> held.configure(context)).get(10, TimeUnit.SECONDS))
                .isEqualTo(Configurator.ExecutionStatus.INVOKE_NEXT_IF_ANY);
    }
}
