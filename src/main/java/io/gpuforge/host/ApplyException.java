package io.gpuforge.host;

import io.gpuforge.domain.HostChangeState;
import java.util.List;
import java.util.Optional;

/**
 * An apply or rollback did not complete; the message says in which state the host was left, and {@link #host()}
 * says it item by item when GPUForge had started to change the host.
 */
public class ApplyException extends Exception {

    private static final long serialVersionUID = 1L;

    private final transient HostChangeState host;

    public ApplyException(String message, Throwable cause) {
        this(message, cause, null);
    }

    public ApplyException(String message) {
        this(message, null, null);
    }

    public ApplyException(String message, Throwable cause, HostChangeState host) {
        super(message, cause);
        this.host = host;
    }

    /** Where the host was left, when the apply or rollback had started to change it. */
    public Optional<HostChangeState> host() {
        return Optional.ofNullable(host);
    }
}
