package io.gpuforge.domain.passthrough;

import java.util.List;
import java.util.Objects;

/**
 * One readiness check's outcome. {@code key} names the message (and {@code key + ".fix"} the fix, when
 * there is one) in {@code passthrough/messages*.properties}; {@code args} fill it.
 */
public record Check(String id, Status status, String key, List<String> args) {

    public enum Status { PASS, WARN, FAIL, UNKNOWN }

    public Check {
        Objects.requireNonNull(id);
        Objects.requireNonNull(status);
        Objects.requireNonNull(key);
        args = List.copyOf(args);
    }

    public static Check of(String id, Status s, String key, String... args) {
        return new Check(id, s, key, List.of(args));
    }
}
