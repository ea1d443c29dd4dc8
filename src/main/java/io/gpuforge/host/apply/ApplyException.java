package io.gpuforge.host.apply;

import io.gpuforge.domain.host.HostChangeException;
import io.gpuforge.domain.host.HostChangeState;

/**
 * An apply or rollback did not complete; the message says in which state the host was left, and {@link #host()}
 * says it item by item when GPUForge had started to change the host.
 */
public class ApplyException extends HostChangeException {

    private static final long serialVersionUID = 1L;


    public ApplyException(String message, Throwable cause) {
        this(message, cause, null);
    }

    public ApplyException(String message) {
        this(message, null, null);
    }

    public ApplyException(String message, Throwable cause, HostChangeState host) {
        super(message, cause, host);
    }

}
