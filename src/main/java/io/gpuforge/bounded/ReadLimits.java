package io.gpuforge.bounded;

import java.time.Duration;
import java.util.Objects;

/** How long a whole read may take, from the request to the last byte, and how many bytes it may bring. */
public record ReadLimits(Duration deadline, long maxBytes) {

    public ReadLimits {
        Objects.requireNonNull(deadline);
        if (deadline.isNegative() || deadline.isZero()) {
            throw new IllegalArgumentException("a read needs a deadline above 0, not " + deadline);
        }
        if (maxBytes < 1) {
            throw new IllegalArgumentException("a read needs a byte limit above 0, not " + maxBytes);
        }
    }

    /**
     * A byte limit alone, for what the user ends (a file they chose, stdin from their pipe, text they pasted): no
     * deadline.
     */
    public static ReadLimits size(long maxBytes) {
        return new ReadLimits(Duration.ofSeconds(Long.MAX_VALUE), maxBytes);
    }

    /** The limit in words: "16 MiB", "64 KiB", "512 bytes". */
    public String sizeText() {
        if (maxBytes >= 1 << 20 && maxBytes % (1 << 20) == 0) {
            return (maxBytes >> 20) + " MiB";
        }
        if (maxBytes >= 1 << 10 && maxBytes % (1 << 10) == 0) {
            return (maxBytes >> 10) + " KiB";
        }
        return maxBytes + " bytes";
    }

    /** The deadline in words: "10 s", "1.5 s", "250 ms". */
    public String deadlineText() {
        long ms = deadline.toMillis();
        if (ms < 1000) {
            return ms + " ms";
        }
        return ms % 1000 == 0 ? ms / 1000 + " s" : String.format(java.util.Locale.ROOT, "%.1f s", ms / 1000.0);
    }
}
