package io.gpuforge.app;

import io.gpuforge.app.VmProvisioning.Request;
import io.gpuforge.domain.BackendException;
import io.gpuforge.domain.CloudInit;
import io.gpuforge.domain.Redaction;
import io.gpuforge.domain.VmTemplate;
import java.util.ArrayList;
import java.util.List;

/**
 * What a VM create or setup must never show ({@link Redaction}): the password's hash and the values of the
 * template's secret variables. The request holds them; its progress, its task log entry (and so the CSV/JSON
 * exports) and the errors it ends with get them masked.
 */
final class VmSecrets {

    private VmSecrets() {
    }

    static Redaction of(Request r) {
        List<String> out = new ArrayList<>();
        r.cloudInit().flatMap(CloudInit::passwordHash).ifPresent(out::add);
        for (VmTemplate.Variable v : r.template().variables()) {
            if (v.secret()) {
                out.add(r.variables().get(v.name()));
            }
        }
        return Redaction.of(out);
    }

    /**
     * {@code e}, or where its message (or a cause's) shows a secret a copy with the message masked, its stack kept,
     * and no cause: the cause's text would show it again in the log.
     */
    static BackendException masked(BackendException e, Redaction secrets) {
        boolean reveals = false;
        for (Throwable t = e; t != null && !reveals; t = t.getCause()) {
            reveals = secrets.reveals(t.getMessage()) || secrets.reveals(t.toString());
        }
        if (!reveals) {
            return e;
        }
        BackendException copy = new BackendException(e.kind(), secrets.apply(e.getMessage()));
        copy.setStackTrace(e.getStackTrace());
        return copy;
    }
}
