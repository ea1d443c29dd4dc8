package io.gpuforge.ui.cluster;

import io.gpuforge.app.AppContext;
import io.gpuforge.app.desktop.ConsoleLauncher;
import io.gpuforge.app.monitor.EventLog;
import io.gpuforge.app.passthrough.NodeReadiness;
import io.gpuforge.app.session.Sessions;
import io.gpuforge.app.vmcreate.VmProvisioning;
import io.gpuforge.ui.share.ShareServices;
import java.util.Objects;
import java.util.concurrent.Executor;

/**
 * What the hypervisor pages (cluster, node, VM, container) and their actions work through, and nothing else of the
 * application: the sessions, the share windows' services, the event log the actions write to, a node's readiness,
 * a VM's first-boot snippets, the consoles, and the pool views compute off the FX thread in. Built by the shell
 * (the composition root).
 */
public record ClusterServices(Executor background, Sessions sessions, ShareServices share, EventLog events,
                              NodeReadiness readiness, VmProvisioning provisioning, ConsoleLauncher consoles) {

    public ClusterServices {
        Objects.requireNonNull(background);
        Objects.requireNonNull(sessions);
        Objects.requireNonNull(share);
        Objects.requireNonNull(events);
        Objects.requireNonNull(readiness);
        Objects.requireNonNull(provisioning);
        Objects.requireNonNull(consoles);
    }

    /** Taken from the application's services: by the composition root, once. */
    public static ClusterServices of(AppContext app) {
        return new ClusterServices(app.executors().background(), app.sessions(), ShareServices.of(app), app.events(),
                app.readiness(), app.provisioning(), app.consoles());
    }
}
