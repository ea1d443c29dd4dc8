package io.gpuforge.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.gpuforge.testing.KernelNice;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The background pools keep the process's priority until the window says it is drawn, and give way to it from then
 * on, each thread before its next task, by the same 5 levels whichever thread started it; the programs the user asks
 * for start at the process's priority. Read back from the kernel ({@code /proc/thread-self/stat}, a program's own
 * {@code /proc/self/stat}).
 */
class AppExecutorsPriorityTest {

    private static final long WAIT = 10;

    @BeforeEach
    void linuxOnly() {
        assumeTrue(KernelNice.readable(), "Linux only: other systems follow Thread.setPriority");
    }

    private static int nice() {
        return KernelNice.ofThisThread();
    }

    @Test
    void backgroundAndTimerThreadsGiveWayOnlyOnceTheWindowIsDrawn() throws Exception {
        int process = nice();
        try (AppExecutors ex = new AppExecutors((t, e) -> { })) {
            assertThat(ex.background().submit(AppExecutorsPriorityTest::nice).get(WAIT, TimeUnit.SECONDS))
                    .isEqualTo(process);
            assertThat(ex.scheduler().schedule(AppExecutorsPriorityTest::nice, 1, TimeUnit.MILLISECONDS)
                    .get(WAIT, TimeUnit.SECONDS)).isEqualTo(process);
            assertThat(ex.givingWay()).isFalse();

            ex.giveWayToTheWindow();
            int expected = Math.min(19, process + AppExecutors.NICER);
            assertThat(ex.givingWay()).isTrue();
            // the same threads as before (a cached pool reuses its idle thread), lowered before this task
            assertThat(ex.background().submit(AppExecutorsPriorityTest::nice).get(WAIT, TimeUnit.SECONDS))
                    .isEqualTo(expected);
            assertThat(ex.scheduler().schedule(AppExecutorsPriorityTest::nice, 1, TimeUnit.MILLISECONDS)
                    .get(WAIT, TimeUnit.SECONDS)).isEqualTo(expected);
            assertThat(ex.scheduler().submit(AppExecutorsPriorityTest::nice).get(WAIT, TimeUnit.SECONDS))
                    .isEqualTo(expected);
        }
        assertThat(nice()).isEqualTo(process);
    }

    /** A worker made by a lowered thread (a task that submits a task while the pool is busy) is not lowered twice. */
    @Test
    void aWorkerStartedByALoweredThreadGivesWayByFiveLevelsNotTen() throws Exception {
        int process = nice();
        try (AppExecutors ex = new AppExecutors((t, e) -> { })) {
            ex.giveWayToTheWindow();
            CountDownLatch release = new CountDownLatch(1);
            Future<Integer> inner = ex.background().submit(() -> {
                // this worker is lowered; while it is busy the pool must make a new worker, from this thread
                Future<Integer> made = ex.background().submit(AppExecutorsPriorityTest::nice);
                int n = made.get(WAIT, TimeUnit.SECONDS);
                release.countDown();
                return n;
            });
            assertThat(inner.get(WAIT, TimeUnit.SECONDS)).isEqualTo(Math.min(19, process + AppExecutors.NICER));
            assertThat(release.await(WAIT, TimeUnit.SECONDS)).isTrue();
        }
    }

    /** What the user asks to open (virt-viewer, a browser) must not inherit the lowered priority for its whole life. */
    @Test
    void aProgramStartedFromALoweredThreadRunsAtTheProcesssPriority() throws Exception {
        int process = nice();
        try (AppExecutors ex = new AppExecutors((t, e) -> { })) {
            ex.giveWayToTheWindow();
            int[] niceOf = ex.background().submit(() -> new int[] {
                niceOfProgram(ex.startProgram(programThatSaysItsNice())),
                niceOfProgram(programThatSaysItsNice().start()), // what starting it from here would have done
            }).get(WAIT, TimeUnit.SECONDS);
            assertThat(niceOf[0]).as("started through startProgram").isEqualTo(process);
            assertThat(niceOf[1]).as("started from the lowered thread itself")
                    .isEqualTo(Math.min(19, process + AppExecutors.NICER));
        }
    }

    private static ProcessBuilder programThatSaysItsNice() {
        return new ProcessBuilder("awk", "{print $19}", "/proc/self/stat").redirectErrorStream(true);
    }

    private static int niceOfProgram(Process p) throws Exception {
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertThat(p.waitFor(WAIT, TimeUnit.SECONDS)).isTrue();
        return Integer.parseInt(out);
    }
}
