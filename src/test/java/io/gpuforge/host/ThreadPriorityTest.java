package io.gpuforge.host;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Lowering a thread's priority on Linux, read back from the kernel ({@code /proc/thread-self/stat}, not through the
 * class's own calls): the thread, and the threads it starts after, are nicer; the thread that started it is not.
 */
class ThreadPriorityTest {

    /** The kernel's nice value of the calling thread: field 19 of /proc/thread-self/stat. */
    static int niceOfThisThread() throws Exception {
        String stat = Files.readString(Path.of("/proc/thread-self/stat"));
        String[] after = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Integer.parseInt(after[19 - 3]);
    }

    @Test
    void aLoweredThreadAndTheThreadsItStartsAreNicerAndTheOthersAreNot() throws Exception {
        assumeTrue(Files.exists(Path.of("/proc/thread-self/stat")),
                "Linux only: other systems follow Thread.setPriority");
        int mine = niceOfThisThread();
        AtomicInteger lowered = new AtomicInteger(Integer.MIN_VALUE);
        AtomicInteger child = new AtomicInteger(Integer.MIN_VALUE);
        AtomicInteger reported = new AtomicInteger(Integer.MIN_VALUE);
        boolean[] ok = new boolean[1];
        Thread t = new Thread(() -> {
            try {
                ok[0] = ThreadPriority.lowerCurrentThread(5);
                lowered.set(niceOfThisThread());
                reported.set(ThreadPriority.currentNice());
                Thread c = new Thread(() -> {
                    try {
                        child.set(niceOfThisThread());
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                });
                c.start();
                c.join();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        t.start();
        t.join();
        assertThat(ok[0]).isTrue();
        assertThat(lowered.get()).isEqualTo(Math.min(19, mine + 5));
        assertThat(reported.get()).isEqualTo(lowered.get());
        assertThat(child.get()).isEqualTo(lowered.get());
        assertThat(niceOfThisThread()).isEqualTo(mine);
        assertThat(t.getPriority()).isLessThan(Thread.NORM_PRIORITY);
    }

    /** The level is counted from the process's main thread: a lowered thread's child, lowered again, stays at +5. */
    @Test
    void aChildOfALoweredThreadLoweredAgainStaysWhereItsParentIs() throws Exception {
        assumeTrue(Files.exists(Path.of("/proc/thread-self/stat")),
                "Linux only: other systems follow Thread.setPriority");
        int mine = niceOfThisThread();
        AtomicInteger child = new AtomicInteger(Integer.MIN_VALUE);
        Thread t = new Thread(() -> {
            ThreadPriority.lowerCurrentThread(5);
            Thread c = new Thread(() -> {
                try {
                    ThreadPriority.lowerCurrentThread(5);
                    child.set(niceOfThisThread());
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            c.start();
            try {
                c.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        t.start();
        t.join();
        assertThat(child.get()).isEqualTo(Math.min(19, mine + 5));
    }

    @Test
    void nothingChangesForZeroAndTheValueStopsAtNineteen() throws Exception {
        assumeTrue(Files.exists(Path.of("/proc/thread-self/stat")),
                "Linux only: other systems follow Thread.setPriority");
        AtomicInteger zero = new AtomicInteger(Integer.MIN_VALUE);
        AtomicInteger most = new AtomicInteger(Integer.MIN_VALUE);
        Thread t = new Thread(() -> {
            try {
                int before = niceOfThisThread();
                assertThat(ThreadPriority.lowerCurrentThread(0)).isFalse();
                zero.set(niceOfThisThread() - before);
                ThreadPriority.lowerCurrentThread(100);
                most.set(niceOfThisThread());
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        t.start();
        t.join();
        assertThat(zero.get()).isZero();
        assertThat(most.get()).isEqualTo(19);
    }
}
