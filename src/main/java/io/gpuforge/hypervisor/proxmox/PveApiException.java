package io.gpuforge.hypervisor.proxmox;

import java.util.Map;

/**
 * A Proxmox VE request failed: HTTP status, PVE's status-line message, and for a 400 the per-parameter
 * {@code errors}. {@link Kind} tells the UI what to say: wrong credentials, a stale digest (someone else
 * changed the VM), an unknown path, bad input from the server, or a refused certificate.
 */
public class PveApiException extends Exception {

    private static final long serialVersionUID = 1L;

    public enum Kind { AUTH, CONFLICT, NOT_IMPLEMENTED, BAD_REQUEST, SERVER, PROTOCOL, TLS, NETWORK }

    private final Kind kind;
    private final int status;
    private final transient Map<String, String> errors;

    public PveApiException(Kind kind, int status, String message, Map<String, String> errors, Throwable cause) {
        super(message, cause);
        this.kind = kind;
        this.status = status;
        this.errors = Map.copyOf(errors);
    }

    public Kind kind() {
        return kind;
    }

    public int status() {
        return status;
    }

    public Map<String, String> errors() {
        return errors;
    }
}
