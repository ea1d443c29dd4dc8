package io.gpuforge.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The background pools keep the process's priority until the window says it is drawn, and give way to it from then
 * on, each thread before its next task; read back from the kernel ({@code /proc/thread-self/stat}).
 */
class AppExecutorsPriorityTest {

    private static int nice() {
        try {
            String stat = Files.readString(Path.of("/proc/thread-self/stat"));
            return Integer.parseInt(stat.substring(stat.lastIndexOf(')') + 2).split(" ")[19 - 3]);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void backgroundAndTimerThreadsGiveWayOnlyOnceTheWindowIsDrawn() throws Exception {
        assumeTrue(Files.exists(Path.of("/proc/thread-self/stat")), "Linux only: other systems follow Thread.setPriority");
        int process = nice();
        try (AppExecutors ex = new AppExecutors((t, e) -> { })) {
            assertThat(ex.background().submit(AppExecutorsPriorityTest::nice).get(10, TimeUnit.SECONDS)).isEqualTo(process);
            assertThat(ex.scheduler().schedule(AppExecutorsPriorityTest::nice, 1, TimeUnit.MILLISECONDS)
                    .get(10, TimeUnit.SECONDS)).isEqualTo(process);
            assertThat(ex.givingWay()).isFalse();

            ex.giveWayToTheWindow();
            int expected = Math.min(19, process + AppExecutors.NICER);
            assertThat(ex.givingWay()).isTrue();
            // the same threads as before (a cached pool reuses its idle thread), lowered before this task
            assertThat(ex.background().submit(AppExecutorsPriorityTest::nice).get(10, TimeUnit.SECONDS)).isEqualTo(expected);
            assertThat(ex.scheduler().schedule(AppExecutorsPriorityTest::nice, 1, TimeUnit.MILLISECONDS)
                    .get(10, TimeUnit.SECONDS)).isEqualTo(expected);
            // a thread lowers itself once: a second task finds it where it was
            assertThat(ex.scheduler().submit(AppExecutorsPriorityTest::nice).get(10, TimeUnit.SECONDS)).isEqualTo(expected);
        }
        assertThat(nice()).isEqualTo(process);
    }
}
