package io.gpuforge.host;

import io.gpuforge.domain.host.HostException;

/** Host facts could not be read: unreachable host, refused key, or input that is not what it should be. */
public class ProbeException extends HostException {

    private static final long serialVersionUID = 1L;

    public ProbeException(String message) {
        super(message);
    }

    public ProbeException(String message, Throwable cause) {
        super(message, cause);
    }
}
