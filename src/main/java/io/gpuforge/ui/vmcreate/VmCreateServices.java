package io.gpuforge.ui.vmcreate;

import io.gpuforge.app.AppContext;
import io.gpuforge.app.connections.ConnectionsService;
import io.gpuforge.app.desktop.ConsoleLauncher;
import io.gpuforge.app.host.HostService;
import io.gpuforge.app.passthrough.PassthroughService;
import io.gpuforge.app.session.Sessions;
import io.gpuforge.app.vmcreate.TemplateService;
import io.gpuforge.app.vmcreate.VmProvisioning;
import java.util.Objects;

/**
 * What the VM creation wizard and the template manager work through, and nothing else of the application: the
 * saved connections and their sessions (where a VM can go), the templates, the provisioning, a new VM's console, and
 * the host's readings and passthrough verdicts (the GPU page). Built by the shell (the composition root).
 */
public record VmCreateServices(ConnectionsService connections, Sessions sessions, TemplateService templates,
                               VmProvisioning provisioning, ConsoleLauncher consoles, HostService hosts,
                               PassthroughService passthrough) {

    public VmCreateServices {
        Objects.requireNonNull(connections);
        Objects.requireNonNull(sessions);
        Objects.requireNonNull(templates);
        Objects.requireNonNull(provisioning);
        Objects.requireNonNull(consoles);
        Objects.requireNonNull(hosts);
        Objects.requireNonNull(passthrough);
    }

    /** Taken from the application's services: by the composition root, once. */
    public static VmCreateServices of(AppContext app) {
        return new VmCreateServices(app.connections(), app.sessions(), app.templates(), app.provisioning(),
                app.consoles(), app.hosts(), app.passthrough());
    }
}
