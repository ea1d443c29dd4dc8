package io.gpuforge.ui.common;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class LoadableTest {

    private final ManualTasks tasks = new ManualTasks();
    private final AtomicInteger reads = new AtomicInteger();

    @Test
    void changesDuringARunningReadBecomeOneReloadAfterIt() {
        Loadable<Integer> l = new Loadable<>(tasks, reads::incrementAndGet, "read");
        l.changed();
        assertThat(l.loadingProperty().get()).isTrue();
        l.changed();
        l.changed();
        l.changed();
        assertThat(tasks.waiting()).isEqualTo(1);
        tasks.runNext();
        assertThat(l.valueProperty().get()).isEqualTo(1);
        assertThat(l.loadingProperty().get()).as("the coalesced reload runs").isTrue();
        assertThat(tasks.waiting()).isEqualTo(1);
        tasks.runNext();
        assertThat(l.valueProperty().get()).isEqualTo(2);
        assertThat(l.loadingProperty().get()).isFalse();
        assertThat(reads).hasValue(2);
    }

    @Test
    void aRefreshOvertakesTheRunningReadWhoseLateAnswerIsIgnored() {
        Loadable<Integer> l = new Loadable<>(tasks, reads::incrementAndGet, "read");
        l.refresh();
        l.refresh();
        tasks.runNext(); // the first, cancelled: it neither sets a value nor ends the loading
        assertThat(l.valueProperty().get()).isNull();
        assertThat(l.loadingProperty().get()).isTrue();
        tasks.runNext();
        assertThat(l.valueProperty().get()).isEqualTo(1);
        assertThat(l.loadingProperty().get()).isFalse();
    }

    @Test
    void aFailureKeepsItsCauseForTheDetailsAndAGoodReadClearsIt() {
        IOException cause = new IOException("host unreachable");
        boolean[] fail = {true};
        Loadable<String> l = new Loadable<>(tasks, () -> {
            if (fail[0]) {
                throw new IllegalStateException("The probe failed", cause);
            }
            return "ok";
        }, "probe");
        l.refresh();
        tasks.runNext();
        assertThat(l.errorProperty().get()).isEqualTo("The probe failed");
        assertThat(l.failureProperty().get()).hasCause(cause);
        fail[0] = false;
        l.changed();
        tasks.runNext();
        assertThat(l.valueProperty().get()).isEqualTo("ok");
        assertThat(l.failureProperty().get()).isNull();
        assertThat(l.errorProperty().get()).isNull();
    }

    @Test
    void loadOnceReadsOnlyTheFirstTimeAndStartedTellsWhatF5Refreshes() {
        Loadable<Integer> l = new Loadable<>(tasks, reads::incrementAndGet, "read");
        assertThat(l.started()).isFalse();
        l.loadOnce();
        l.loadOnce();
        tasks.runAll();
        l.loadOnce();
        assertThat(tasks.waiting()).isZero();
        assertThat(reads).hasValue(1);
        assertThat(l.started()).isTrue();
    }
}
