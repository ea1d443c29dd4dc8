package io.gpuforge.host;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Lines of a running command, from the threads that read its output to the thread that runs the command, which
 * hands them to the listener: so a listener is called on one thread, in order, and never blocks a reader. When
 * the listener falls far behind, lines are dropped and it is told how many.
 */
public final class LineRelay {

    public static final int MAX_LINE = 8 * 1024;
    private static final int MAX_QUEUED = 10_000;

    private record Line(String text, boolean stderr) {
    }

    private final BlockingQueue<Line> queue = new ArrayBlockingQueue<>(MAX_QUEUED);
    private int dropped;

    /** From a reader thread; never blocks. */
    public void offer(String text, boolean stderr) {
        if (!queue.offer(new Line(text, stderr))) {
            synchronized (this) {
                dropped++;
            }
        }
    }

    /** Hands every queued line to {@code listener}, waiting up to {@code waitNanos} for the first. */
    public void deliver(HostShell.LineListener listener, long waitNanos) throws InterruptedException {
        Line first = waitNanos > 0 ? queue.poll(waitNanos, TimeUnit.NANOSECONDS) : queue.poll();
        for (Line l = first; l != null; l = queue.poll()) {
            listener.line(l.text(), l.stderr());
        }
        int lost;
        synchronized (this) {
            lost = dropped;
            dropped = 0;
        }
        if (lost > 0) {
            listener.line("[" + lost + " lines of output not shown]", true);
        }
    }
}
