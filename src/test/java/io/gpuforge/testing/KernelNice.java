package io.gpuforge.testing;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A thread's nice value as the Linux kernel has it, and work on a thread of its own (a new thread starts at its
 * creator's nice value).
 */
public final class KernelNice {

    private static final Path STAT = Path.of("/proc/thread-self/stat");

    private KernelNice() {
    }

    /** Whether this kernel tells a thread's nice value (Linux). */
    public static boolean readable() {
        return Files.exists(STAT);
    }

    /** The calling thread's nice value: field 19 of /proc/thread-self/stat. */
    public static int ofThisThread() {
        try {
            String stat = Files.readString(STAT);
            return Integer.parseInt(stat.substring(stat.lastIndexOf(')') + 2).split(" ")[19 - 3]);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** Runs {@code work} on a new thread started by the calling one and returns what it returned. */
    public static <T> T onNewThread(Callable<T> work) throws Exception {
        CompletableFuture<T> result = new CompletableFuture<>();
        Thread t = new Thread(() -> {
            try {
                result.complete(work.call());
            } catch (Throwable e) {
                result.completeExceptionally(e);
            }
        }, "kernel-nice");
        t.start();
        return result.get(10, TimeUnit.SECONDS);
    }
}
