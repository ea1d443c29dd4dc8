package io.gpuforge.hypervisor.libvirt;

/** A libvirt call failed; carries libvirt's own message. */
public class LibvirtBackendException extends Exception {

    private static final long serialVersionUID = 1L;

    public LibvirtBackendException(String message, Throwable cause) {
        super(message, cause);
    }
}
