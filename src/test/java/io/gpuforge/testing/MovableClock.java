package io.gpuforge.testing;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** A clock a test moves, in UTC; one instance can be shared by several parts (a client and its server). */
public final class MovableClock extends Clock {

    private volatile Instant now;

    public MovableClock(Instant start) {
        now = start;
    }

    public void set(Instant t) {
        now = t;
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return this;
    }

    @Override
    public Instant instant() {
        return now;
    }
}
