package io.gpuforge.host;

import static io.gpuforge.testing.KernelNice.ofThisThread;
import static io.gpuforge.testing.KernelNice.onNewThread;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.gpuforge.testing.KernelNice;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Lowering a thread's priority on Linux, read back from the kernel ({@code /proc/thread-self/stat}, not through the
 * class's own calls): the thread, and the threads it starts after, are nicer; the thread that started it is not.
 */
class ThreadPriorityTest {

    @BeforeEach
    void linuxOnly() {
        assumeTrue(KernelNice.readable(), "Linux only: other systems follow Thread.setPriority");
    }

    @Test
    void aLoweredThreadAndTheThreadsItStartsAreNicerAndTheOthersAreNot() throws Exception {
        int mine = ofThisThread();
        Thread[] lowered = new Thread[1];
        // lowered?, its nice, what the class says, its child's nice
        List<Object> seen = onNewThread(() -> {
            lowered[0] = Thread.currentThread();
            boolean ok = ThreadPriority.lowerCurrentThread(5);
            return List.of(ok, ofThisThread(), ThreadPriority.currentNice(), onNewThread(KernelNice::ofThisThread));
        });
        int expected = Math.min(19, mine + 5);
        assertThat(seen).containsExactly(true, expected, expected, expected);
        assertThat(ofThisThread()).isEqualTo(mine);
        assertThat(lowered[0].getPriority()).isLessThan(Thread.NORM_PRIORITY);
    }

    /** The level is counted from the process's main thread: a lowered thread's child, lowered again, stays at +5. */
    @Test
    void aChildOfALoweredThreadLoweredAgainStaysWhereItsParentIs() throws Exception {
        int mine = ofThisThread();
        int child = onNewThread(() -> {
            ThreadPriority.lowerCurrentThread(5);
            return onNewThread(() -> {
                ThreadPriority.lowerCurrentThread(5);
                return ofThisThread();
            });
        });
        assertThat(child).isEqualTo(Math.min(19, mine + 5));
    }

    @Test
    void nothingChangesForZeroAndTheValueStopsAtNineteen() throws Exception {
        List<Object> seen = onNewThread(() -> {
            int before = ofThisThread();
            boolean zero = ThreadPriority.lowerCurrentThread(0);
            int afterZero = ofThisThread() - before;
            ThreadPriority.lowerCurrentThread(100);
            return List.of(zero, afterZero, ofThisThread());
        });
        assertThat(seen).containsExactly(false, 0, 19);
    }
}
