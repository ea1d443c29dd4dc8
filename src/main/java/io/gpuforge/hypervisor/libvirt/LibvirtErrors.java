package io.gpuforge.hypervisor.libvirt;

import io.gpuforge.domain.BackendException.Kind;
import org.libvirt.Error;
import org.libvirt.Error.ErrorDomain;
import org.libvirt.Error.ErrorNumber;
import org.libvirt.LibvirtException;

/**
 * libvirt's error codes in the seam's terms ({@link Kind}), and the message a user reads: what GPUForge tried,
 * libvirt's own words, and for a dropped connection or a refused login what to do about it.
 */
final class LibvirtErrors {

    private LibvirtErrors() {
    }

    static LibvirtBackendException wrap(String what, LibvirtException e) {
        Error err = e.getError();
        String m = err != null && err.getMessage() != null ? err.getMessage() : e.getMessage();
        Kind kind = err == null ? Kind.FAILED : kind(err.getCode(), err.getDomain());
        return new LibvirtBackendException(kind, "libvirt could not " + what + ": " + m + hint(kind), e);
    }

    private static String hint(Kind kind) {
        switch (kind) {
            case NETWORK:
                return " (the host does not answer or the connection dropped: check that it is reachable and that"
                        + " libvirtd runs on it, then connect again)";
            case AUTH:
                return " (check the user, its key or password, and that it may manage libvirt, e.g. is in the"
                        + " libvirt group)";
            default:
                return "";
        }
    }

    /** What kind of failure a libvirt error is; {@code domain} tells an RPC failure from a local one. */
    static Kind kind(ErrorNumber code, ErrorDomain domain) {
        if (code == null) {
            return Kind.FAILED;
        }
        switch (code) {
            case VIR_ERR_NO_DOMAIN:
            case VIR_ERR_NO_NODE_DEVICE:
            case VIR_ERR_NO_NETWORK:
            case VIR_ERR_NO_STORAGE_POOL:
            case VIR_ERR_NO_STORAGE_VOL:
            case VIR_ERR_NO_DOMAIN_SNAPSHOT:
            case VIR_ERR_NO_INTERFACE:
            case VIR_ERR_NO_SECRET:
            case VIR_ERR_NO_DOMAIN_METADATA:
            case VIR_ERR_DEVICE_MISSING:
                return Kind.NOT_FOUND;
            case VIR_ERR_OPERATION_INVALID:
            case VIR_ERR_INVALID_ARG:
            case VIR_ERR_XML_ERROR:
            case VIR_ERR_XML_DETAIL:
            case VIR_ERR_XML_INVALID_SCHEMA:
            case VIR_ERR_CONFIG_UNSUPPORTED:
            case VIR_ERR_DOM_EXIST:
            case VIR_ERR_OS_TYPE:
            case VIR_ERR_NO_OS:
            case VIR_ERR_NO_NAME:
            case VIR_ERR_INVALID_MAC:
            case VIR_ERR_RESOURCE_BUSY:
            case VIR_ERR_MULTIPLE_DOMAINS:
            case VIR_ERR_BLOCK_COPY_ACTIVE:
                return Kind.INVALID;
            case VIR_ERR_NO_SUPPORT:
            case VIR_ERR_OPERATION_UNSUPPORTED:
            case VIR_ERR_ARGUMENT_UNSUPPORTED:
                return Kind.UNSUPPORTED;
            case VIR_ERR_AUTH_FAILED:
            case VIR_ERR_AUTH_CANCELLED:
            case VIR_ERR_AUTH_UNAVAILABLE:
            case VIR_ERR_ACCESS_DENIED:
            case VIR_ERR_OPERATION_DENIED:
                return Kind.AUTH;
            case VIR_ERR_GNUTLS_ERROR:
                return Kind.TLS;
            case VIR_ERR_OPERATION_TIMEOUT:
                return Kind.TIMEOUT;
            case VIR_ERR_RPC:
            case VIR_ERR_NO_CONNECT:
            case VIR_ERR_INVALID_CONN:
            case VIR_ERR_UNKNOWN_HOST:
            case VIR_ERR_SSH:
            case VIR_ERR_LIBSSH:
            case VIR_ERR_NO_SERVER:
                return Kind.NETWORK;
            case VIR_ERR_SYSTEM_ERROR:
            case VIR_ERR_INTERNAL_ERROR:
                // a socket that failed, or a keepalive that gave up, versus a file or process on the host
                return isTransport(domain) ? Kind.NETWORK : Kind.FAILED;
            default:
                return Kind.FAILED;
        }
    }

    /** Errors raised by libvirt's client transport: the connection, not the host, failed. */
    private static boolean isTransport(ErrorDomain domain) {
        return domain == ErrorDomain.VIR_FROM_RPC || domain == ErrorDomain.VIR_FROM_REMOTE
                || domain == ErrorDomain.VIR_FROM_SSH || domain == ErrorDomain.VIR_FROM_LIBSSH;
    }
}
