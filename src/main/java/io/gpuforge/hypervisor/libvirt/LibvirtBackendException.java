package io.gpuforge.hypervisor.libvirt;

import io.gpuforge.domain.BackendException;
import java.util.Objects;

/**
 * A libvirt call failed; carries libvirt's own message and what kind of failure it was (from libvirt's error
 * code, see {@link LibvirtErrors}), so that {@link LibvirtHypervisor} hands it on as a {@link BackendException}.
 */
public class LibvirtBackendException extends Exception {

    private static final long serialVersionUID = 1L;

    private final BackendException.Kind kind;

    public LibvirtBackendException(String message, Throwable cause) {
        this(BackendException.Kind.FAILED, message, cause);
    }

    public LibvirtBackendException(BackendException.Kind kind, String message, Throwable cause) {
        super(message, cause);
        this.kind = Objects.requireNonNull(kind);
    }

    public BackendException.Kind kind() {
        return kind;
    }

    /** The same failure in the seam's terms; libvirt's exception (when there was one) stays the cause. */
    public BackendException toBackend() {
        return new BackendException(kind, getMessage(), getCause() == null ? this : getCause());
    }
}
