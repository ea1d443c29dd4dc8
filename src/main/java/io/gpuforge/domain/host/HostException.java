package io.gpuforge.domain.host;

/**
 * Host-level work could not be done: a host unreachable, a key refused, facts that are not what they should be, a
 * change that did not finish. The message says what was wrong and what to do.
 */
public class HostException extends Exception {

    private static final long serialVersionUID = 1L;

    public HostException(String message) {
        super(message);
    }

    public HostException(String message, Throwable cause) {
        super(message, cause);
    }
}
