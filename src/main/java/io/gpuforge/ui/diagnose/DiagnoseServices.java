package io.gpuforge.ui.diagnose;

import io.gpuforge.app.AppContext;
import io.gpuforge.app.diagnose.DiagnoseService;
import io.gpuforge.app.diagnose.FixService;
import io.gpuforge.app.host.HostLogs;
import io.gpuforge.app.session.Sessions;
import java.util.Objects;

/**
 * What the diagnosis windows work through, and nothing else of the application: the diagnosis (of pasted text, a
 * file, a VM's evidence), the fixes it proposes and keeps, the hosts' logs and the hypervisor sessions. Built by
 * the shell (the composition root) and handed to the windows it opens.
 */
public record DiagnoseServices(DiagnoseService diagnosis, FixService fixes, HostLogs hostLogs, Sessions sessions) {

    public DiagnoseServices {
        Objects.requireNonNull(diagnosis);
        Objects.requireNonNull(fixes);
        Objects.requireNonNull(hostLogs);
        Objects.requireNonNull(sessions);
    }

    /** Taken from the application's services: by the composition root, once. */
    public static DiagnoseServices of(AppContext app) {
        return new DiagnoseServices(app.diagnosis(), app.fixes(), app.hostLogs(), app.sessions());
    }
}
