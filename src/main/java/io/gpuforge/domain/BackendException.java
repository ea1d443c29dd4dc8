package io.gpuforge.domain;

import java.util.Locale;
import java.util.Objects;

/**
 * A hypervisor backend could not do what was asked, with the kind of failure (so callers can react: ask for a
 * certificate, re-read a stale configuration, hide an unsupported action) and a message for the user that
 * says what was wrong. The backend's own exception is the cause.
 */
public class BackendException extends Exception {

    private static final long serialVersionUID = 1L;

    public enum Kind {
        /** the host does not answer, or the connection dropped */
        NETWORK,
        /** login refused, token or password wrong, or a privilege missing */
        AUTH,
        /** the certificate is not trusted or changed */
        TLS,
        /** no such VM, node or device */
        NOT_FOUND,
        /** the VM changed since its configuration was read (stale digest) */
        CONFLICT,
        /** the request is not valid (names, values, state) */
        INVALID,
        /** this backend does not offer that ({@link Capability}) */
        UNSUPPORTED,
        /** the answer made no sense */
        PROTOCOL,
        /** it took too long */
        TIMEOUT,
        /** the backend tried and failed */
        FAILED
    }

    private final Kind kind;

    public BackendException(Kind kind, String message, Throwable cause) {
        super(message, cause);
        this.kind = Objects.requireNonNull(kind);
    }

    public BackendException(Kind kind, String message) {
        this(kind, message, null);
    }

    public static BackendException unsupported(String backend, Capability c) {
        return new BackendException(Kind.UNSUPPORTED, backend + " cannot do that (" + c.name().toLowerCase(Locale.ROOT)
                .replace('_', ' ') + ")");
    }

    public Kind kind() {
        return kind;
    }
}
