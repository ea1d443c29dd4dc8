package io.gpuforge.host;

/** An apply or rollback did not complete; the message says in which state the host was left. */
public class ApplyException extends Exception {

    private static final long serialVersionUID = 1L;

    public ApplyException(String message, Throwable cause) {
        super(message, cause);
    }

    public ApplyException(String message) {
        super(message);
    }
}
