package io.gpuforge.ui.common;

import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;

/** A time of today as the window shows it wherever it says "since" or "at": 10:42:07, local. */
public final class ClockText {

    private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm:ss")
            .withZone(ZoneId.systemDefault());

    private ClockText() {
    }

    public static String of(Instant t) {
        return CLOCK.format(t);
    }
}
