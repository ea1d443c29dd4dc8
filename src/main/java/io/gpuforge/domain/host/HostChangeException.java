package io.gpuforge.domain.host;

import java.util.Optional;

/** An apply or rollback did not complete; {@link #host()} says item by item where the host was left, when known. */
public class HostChangeException extends HostException {

    private static final long serialVersionUID = 1L;
    private final transient HostChangeState host;

    public HostChangeException(String message, Throwable cause, HostChangeState host) {
        super(message, cause);
        this.host = host;
    }

    /** Where the host was left, when the apply or rollback had started to change it. */
    public Optional<HostChangeState> host() {
        return Optional.ofNullable(host);
    }
}
