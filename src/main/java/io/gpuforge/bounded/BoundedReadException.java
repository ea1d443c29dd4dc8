package io.gpuforge.bounded;

import java.io.IOException;
import java.util.Objects;

/**
 * A read of outside input that went past its deadline or its byte limit: which source, which limit, and how many
 * bytes had arrived, so that "it stopped answering" and "it sent far too much" read differently from a refused
 * connection.
 */
public final class BoundedReadException extends IOException {

    private static final long serialVersionUID = 1L;

    /** Which limit was passed. */
    public enum Kind { DEADLINE, TOO_LARGE }

    private final String source;
    private final Kind kind;
    private final transient ReadLimits limits;
    private final long read;

    public BoundedReadException(String source, Kind kind, ReadLimits limits, long read) {
        this(source, kind, limits, read, message(source, kind, limits, read));
    }

    /** The same with the transport's own words ("tar did not finish within 1 s and was stopped"). */
    public BoundedReadException(String source, Kind kind, ReadLimits limits, long read, String message) {
        super(message);
        this.source = Objects.requireNonNull(source);
        this.kind = Objects.requireNonNull(kind);
        this.limits = Objects.requireNonNull(limits);
        this.read = read;
    }

    private static String message(String source, Kind kind, ReadLimits limits, long read) {
        return kind == Kind.DEADLINE
                ? source + " did not finish its answer within " + limits.deadlineText() + " (" + bytes(read)
                + " had arrived)"
                : source + " sent more than " + limits.sizeText() + " (" + bytes(read) + " when it was cut off)";
    }

    private static String bytes(long n) {
        return n == 1 ? "1 byte" : String.format(java.util.Locale.ROOT, "%,d bytes", n);
    }

    public String source() {
        return source;
    }

    public Kind kind() {
        return kind;
    }

    public ReadLimits limits() {
        return limits;
    }

    /** Bytes that had arrived when the read was given up. */
    public long read() {
        return read;
    }
}
