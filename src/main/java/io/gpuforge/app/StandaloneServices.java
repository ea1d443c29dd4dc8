package io.gpuforge.app;

import io.gpuforge.app.backends.Backends;
import io.gpuforge.app.backends.LibvirtBackends;
import io.gpuforge.app.diagnose.DiagnoseService;
import io.gpuforge.app.passthrough.PassthroughService;
import io.gpuforge.app.host.HostAccess;
import io.gpuforge.app.host.HostService;
import io.gpuforge.app.host.KnownHosts;
import io.gpuforge.app.session.Sessions;
import java.time.Clock;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The services without anything saved behind them (no database, no secret store): what the CLI needs to read and
 * change a host, or ask a hypervisor, that it names on the spot. The same classes the window uses, put together here
 * so the command line needs no composition of its own.
 */
public final class StandaloneServices implements AutoCloseable {

    private final HostService hosts;
    private final PassthroughService passthrough;
    private final Sessions sessions;
    private final DiagnoseService diagnosis = new DiagnoseService();
    private final ExecutorService closer = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "gpuforge-close");
        t.setDaemon(true);
        return t;
    });

    public StandaloneServices(KnownHosts knownHosts) {
        HostAccess access = new HostAccess(Optional.empty(), null, null, null, knownHosts);
        this.hosts = new HostService(access);
        this.passthrough = new PassthroughService(hosts, access, Clock.systemUTC());
        this.sessions = new Sessions(new Backends(null, new LibvirtBackends()), closer);
    }

    public HostService hosts() {
        return hosts;
    }

    public PassthroughService passthrough() {
        return passthrough;
    }

    /** Diagnosis of failed GPU VM starts from logs. */
    public DiagnoseService diagnosis() {
        return diagnosis;
    }

    /** For hypervisors named on the spot ({@link Sessions#adhoc}). */
    public Sessions sessions() {
        return sessions;
    }

    @Override
    public void close() {
        sessions.close();
        closer.shutdown();
    }
}
