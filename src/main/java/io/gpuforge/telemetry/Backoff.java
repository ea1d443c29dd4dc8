package io.gpuforge.telemetry;

/** Waits that double after each failure, from the sampling interval up to a ceiling; reset by a success. */
final class Backoff {

    static final long MAX_MILLIS = 60_000;
    private final long initial;
    private long next;

    Backoff(long initialMillis) {
        this.initial = Math.max(200, initialMillis);
        this.next = this.initial;
    }

    /** The wait before the next try, and doubles the one after. */
    synchronized long failed() {
        long w = next;
        next = Math.min(MAX_MILLIS, next * 2);
        return w;
    }

    synchronized void reset() {
        next = initial;
    }
}
