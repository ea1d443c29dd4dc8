package io.gpuforge.hypervisor.proxmox;

import io.gpuforge.domain.BackendException;
import java.io.InterruptedIOException;
import java.net.SocketTimeoutException;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Turns the client's {@link PveApiException} into the seam's {@link BackendException}, keeping the message the
 * user reads. PVE answers most refusals as a 500 with its reason in the status line, so the reason decides:
 * "does not exist" is {@code NOT_FOUND}, a stale digest ("detected modified configuration") is {@code CONFLICT},
 * a 403 ("Permission check failed") is {@code AUTH}, PVE's proxy errors 595/596 (a node that does not answer)
 * are {@code NETWORK}, and a 400 with per-parameter errors is {@code INVALID}.
 */
public final class PveErrors {

    private PveErrors() {
    }

    public static BackendException map(PveApiException e) {
        return new BackendException(kind(e), message(e), e);
    }

    static BackendException.Kind kind(PveApiException e) {
        String text = e.getMessage() == null ? "" : e.getMessage().toLowerCase(Locale.ROOT);
        switch (e.kind()) {
            case TLS:
                return BackendException.Kind.TLS;
            case AUTH:
                return BackendException.Kind.AUTH;
            case NETWORK:
                return timeout(e) ? BackendException.Kind.TIMEOUT : BackendException.Kind.NETWORK;
            case CONFLICT:
                return BackendException.Kind.CONFLICT;
            case BAD_REQUEST:
                return BackendException.Kind.INVALID;
            case NOT_IMPLEMENTED:
                return BackendException.Kind.UNSUPPORTED;
            case PROTOCOL:
                return BackendException.Kind.PROTOCOL;
            case SERVER:
            default:
                if (e.status() == 403) {
                    return BackendException.Kind.AUTH;
                }
                if (e.status() == 595 || e.status() == 596) {
                    return BackendException.Kind.NETWORK;
                }
                if (text.contains("detected modified configuration") || text.contains("checksum mismatch")) {
                    return BackendException.Kind.CONFLICT;
                }
                if (text.contains("does not exist") || text.contains("no such") || text.contains("not found")) {
                    return BackendException.Kind.NOT_FOUND;
                }
                return BackendException.Kind.FAILED;
        }
    }

    private static boolean timeout(PveApiException e) {
        for (Throwable t = e.getCause(); t != null; t = t.getCause()) {
            if (t instanceof SocketTimeoutException
                    || t instanceof InterruptedIOException && String.valueOf(t.getMessage()).contains("timeout")) {
                return true;
            }
        }
        return false;
    }

    /** The client's message, with the per-parameter problems when it did not name them already. */
    static String message(PveApiException e) {
        String m = e.getMessage() == null ? "Proxmox VE request failed" : e.getMessage();
        if (e.errors().isEmpty() || e.errors().keySet().stream().allMatch(m::contains)) {
            return m;
        }
        return m + ": " + e.errors().entrySet().stream().map(Map.Entry::toString)
                .map(s -> s.replaceFirst("=", ": ")).collect(Collectors.joining("; "));
    }
}
