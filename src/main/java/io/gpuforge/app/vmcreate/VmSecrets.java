package io.gpuforge.app.vmcreate;

import io.gpuforge.app.vmcreate.VmProvisioning.Request;
import io.gpuforge.domain.vm.CloudInit;
import io.gpuforge.domain.Redaction;
import io.gpuforge.domain.vm.VmTemplate;
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
}
