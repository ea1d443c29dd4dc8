package io.gpuforge.telemetry;

/** A source could not read its GPUs; the message says what was wrong and what to do, for the user. */
public class SourceException extends Exception {

    private static final long serialVersionUID = 1L;

    public SourceException(String message) {
        super(message);
    }

    public SourceException(String message, Throwable cause) {
        super(message, cause);
    }
}
