package io.gpuforge.app;

import io.gpuforge.app.backends.Backends;
import io.gpuforge.app.backends.ConnectionTester;
import io.gpuforge.app.backends.DemoLab;
import io.gpuforge.app.backends.LibvirtBackends;
import io.gpuforge.app.backends.PciMappings;
import io.gpuforge.app.backends.UserPromptRelay;
import io.gpuforge.app.passthrough.NodeReadiness;
import io.gpuforge.app.diagnose.DiagnoseService;
import io.gpuforge.app.diagnose.FixService;
import io.gpuforge.store.DiagnosisFixRepository;
import io.gpuforge.app.share.ContainerService;
import io.gpuforge.app.share.ShareService;
import io.gpuforge.app.passthrough.PassthroughService;
import io.gpuforge.app.vmcreate.TemplateService;
import io.gpuforge.app.vmcreate.VmProvisioning;
import io.gpuforge.app.monitor.AlertService;
import io.gpuforge.app.monitor.AlertWebhook;
import io.gpuforge.app.monitor.CostService;
import io.gpuforge.app.monitor.EventLog;
import io.gpuforge.app.monitor.GpuFleet;
import io.gpuforge.app.monitor.TelemetryService;
import io.gpuforge.app.host.OsFamily;
import io.gpuforge.app.host.HostAccess;
import io.gpuforge.app.host.HostLogs;
import io.gpuforge.app.host.HostService;
import io.gpuforge.app.host.KnownHosts;
import io.gpuforge.app.connections.ConnectionsService;
import io.gpuforge.app.connections.HostLinks;
import io.gpuforge.app.connections.SecretsService;
import io.gpuforge.app.session.Sessions;
import io.gpuforge.app.tasks.TaskLog;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gpuforge.app.settings.SettingsDefaults;
import io.gpuforge.app.settings.SettingsStore;
import io.gpuforge.store.ConnectionRepository;
import io.gpuforge.store.Database;
import io.gpuforge.store.EventRepository;
import io.gpuforge.store.HostLinkRepository;
import io.gpuforge.store.StoreException;
import io.gpuforge.store.TemplateRepository;
import io.gpuforge.store.TaskLogRepository;
import io.gpuforge.store.secret.SecretServiceKeyring;
import io.gpuforge.store.secret.SecretStore;
import io.gpuforge.store.secret.VaultSecretStore;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import io.gpuforge.app.desktop.ConsoleLauncher;

/**
 * The composition root: every long-lived service is created here, once, and handed to whoever needs it
 * through constructors. No static singletons. Blocking (opens the database, asks the OS); create it off
 * the FX thread.
 */
public final class AppContext implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(AppContext.class);

    private final AppPaths paths;
    private final AppExecutors executors;
    private final SettingsStore settings;
    private final Database database;
    private final EventLog events;
    private final SecretsService secrets;
    private final HostService hosts;
    private final HostAccess hostAccess;
    private final HostLinks hostLinks;
    private final PassthroughService passthrough;
    private final DiagnoseService diagnosis;
    private final ShareService shares;
    private final ContainerService containers;
    private final ConnectionsService connections;
    private final UserPromptRelay prompts = new UserPromptRelay();
    private final TaskLog taskLog;
    private final Backends backends;
    private final Sessions sessions;
    private final DemoLab demoLab;
    private final PciMappings pciMappings;
    private final ConnectionTester tester;
    private final ConsoleLauncher consoles;
    private final NodeReadiness readiness;
    private final Optional<Boolean> osPrefersDark;
    private final TemplateService templates;
    private final VmProvisioning provisioning;
    private final MonitorParts monitor;
    private final FixService fixes;

    private AppContext(AppPaths paths, AppExecutors executors, SettingsStore settings, Database database,
                       EventLog events, SecretsService secrets, ConnectionsService connections,
                       Optional<Boolean> osPrefersDark, Options options) {
        this.paths = paths;
        this.executors = executors;
        this.settings = settings;
        this.database = database;
        this.events = events;
        this.secrets = secrets;
        this.connections = connections;
        Path ownKnownHosts = paths.configDir().resolve("known_hosts");
        Supplier<KnownHosts> knownHosts = () -> KnownHosts.of(options.sshDir().map(d -> d.resolve("known_hosts")),
                ownKnownHosts, settings.current().newHostKeys());
        this.hostLinks = new HostLinks(new HostLinkRepository(database), connections);
        LibvirtBackends libvirt = new LibvirtBackends();
        this.backends = new Backends(secrets, libvirt, prompts, Optional.of(paths.dataDir().resolve("demo-lab")));
        this.demoLab = new DemoLab(backends);
        this.hostAccess = new HostAccess(options.sysroot(), secrets, connections, hostLinks, knownHosts,
                options.sshDir(), options.environment(), backends);
        this.hosts = new HostService(hostAccess);
        this.passthrough = new PassthroughService(hosts, hostAccess, Clock.systemUTC());
        this.shares = new ShareService(hosts, passthrough);
        this.containers = new ContainerService(shares);
        this.fixes = new FixService(passthrough, hosts, new DiagnosisFixRepository(database), Clock.systemUTC());
        this.taskLog = new TaskLog(new TaskLogRepository(database), Clock.systemUTC(),
                System.getProperty("user.name", "unknown"));
        this.taskLog.abandonLeftovers();
        this.diagnosis = new DiagnoseService(taskLog);
        this.sessions = new Sessions(backends, executors.background(), executors.scheduler(), Sessions.RECONNECT_FIRST,
                Sessions.RECONNECT_MAX, taskLog);
        this.tester = new ConnectionTester(backends, libvirt, () -> knownHosts.get().file());
        this.consoles = new ConsoleLauncher(OsFamily.current(), () -> backends.demoIfRunning().map(d -> d.url()),
                ConsoleLauncher.uuids(sessions), executors::startProgram);
        this.readiness = new NodeReadiness(sessions, hostLinks, hosts, connections);
        this.pciMappings = new PciMappings(backends, sessions);
        this.osPrefersDark = osPrefersDark;
        this.templates = new TemplateService(new TemplateRepository(database, Clock.systemUTC()));
        this.provisioning = new VmProvisioning(sessions, hostAccess, taskLog);
        this.monitor = new MonitorParts(database, settings, secrets, events, executors, sessions, hostAccess,
                connections, shares);
    }

    /**
     * What differs between a real start and a test.
     *
     * @param environment where {@code SSH_AUTH_SOCK} names the user's SSH agent (among others)
     * @param sshDir      the user's OpenSSH directory ({@code ~/.ssh}): its {@code config}, default keys and
     *                    {@code known_hosts} are used, so the window and the CLI log in and trust hosts alike;
     *                    empty: none of it, only GPUForge's own known_hosts (tests never touch this machine's)
     */
    public record Options(Optional<Path> sysroot, Map<String, String> environment, boolean detectOsAppearance,
                          int vaultIterations, Optional<Path> sshDir) {

        public Options(Optional<Path> sysroot, Map<String, String> environment, boolean detectOsAppearance,
                       int vaultIterations) {
            this(sysroot, environment, detectOsAppearance, vaultIterations, Optional.empty());
        }

        public static Options production() {
            return new Options(Optional.empty(), System.getenv(), true, VaultSecretStore.DEFAULT_ITERATIONS,
                    Optional.of(userSshDir()));
        }

        /** The command line: no window, so the desktop's appearance is not asked. */
        public static Options cli() {
            return new Options(Optional.empty(), System.getenv(), false, VaultSecretStore.DEFAULT_ITERATIONS,
                    Optional.of(userSshDir()));
        }

        /** {@code ~/.ssh} of the user running this (OpenSSH takes it from the account, as {@code user.home} does). */
        static Path userSshDir() {
            return Path.of(System.getProperty("user.home"), ".ssh");
        }
    }

    public static AppContext create(AppPaths paths, Options options, Thread.UncaughtExceptionHandler handler)
            throws IOException, StoreException {
        return create(paths, options, handler, () -> options.detectOsAppearance()
                ? new OsAppearance(OsFamily.current(), options.environment(), OsAppearance::run).prefersDark()
                : Optional.empty());
    }

    /**
     * The window's start: its first frame has already asked the desktop's appearance (the theme needed it), so it
     * is not asked twice. Everything else is built here, off the FX thread, after that frame.
     */
    public static AppContext create(AppPaths paths, Options options, Thread.UncaughtExceptionHandler handler,
                                    Optional<Boolean> osPrefersDark) throws IOException, StoreException {
        return create(paths, options, handler, () -> osPrefersDark);
    }

    private static AppContext create(AppPaths paths, Options options, Thread.UncaughtExceptionHandler handler,
                                     Supplier<Optional<Boolean>> appearance) throws IOException, StoreException {
        paths.createAll();
        AppExecutors executors = new AppExecutors(handler);
        Database db = null;
        try {
            SettingsStore settings = new SettingsStore(paths.settingsFile(),
                    SettingsDefaults.read(SettingsDefaults.installConfigDir(), new ObjectMapper()), executors.scheduler(),
                    SettingsStore.DEFAULT_DEBOUNCE);
            db = Database.open(paths.databaseFile());
            EventLog events = new EventLog(new EventRepository(db), executors.background());
            Optional<SecretStore> keyring = OsFamily.current() == OsFamily.LINUX
                    ? SecretServiceKeyring.detect(options.environment()).map(k -> (SecretStore) k)
                    : Optional.empty();
            SecretsService secrets = new SecretsService(keyring,
                    // the vault's write count witnessed beside the settings, out of the vault's directory: an older
                    // vault put back is noticed at unlock
                    new VaultSecretStore(paths.vaultFile(), options.vaultIterations(),
                            Optional.of(paths.configDir().resolve("vault-generation"))));
            Optional<Boolean> dark = appearance.get();
            LOG.info("GPUForge context ready: config {}, data {}, logs {}, secrets in {}", paths.configDir(),
                    paths.dataDir(), paths.logDir(), secrets.store().backendName());
            return new AppContext(paths, executors, settings, db, events, secrets,
                    new ConnectionsService(new ConnectionRepository(db), secrets), dark, options);
        } catch (StoreException | RuntimeException e) {
            if (db != null) {
                db.close();
            }
            executors.close();
            throw e;
        }
    }

    public AppPaths paths() {
        return paths;
    }

    public AppExecutors executors() {
        return executors;
    }

    public SettingsStore settings() {
        return settings;
    }

    public Database database() {
        return database;
    }

    public EventLog events() {
        return events;
    }

    public SecretsService secrets() {
        return secrets;
    }

    public HostService hosts() {
        return hosts;
    }

    /** Asked for one-time codes and key passphrases while a login runs; the window puts its dialogs in. */
    public UserPromptRelay prompts() {
        return prompts;
    }

    /** Sharing GPUs with containers. */
    public ShareService shares() {
        return shares;
    }

    /** A node's containers: made, and given a GPU ready to be shared. */
    public ContainerService containers() {
        return containers;
    }

    /** Logs read from hosts (a node's kernel log, libvirt's domain logs) for the diagnosis of a VM. */
    public HostLogs hostLogs() {
        return new HostLogs(hostAccess);
    }

    public DiagnoseService diagnosis() {
        return diagnosis;
    }

    /** A diagnosis's fixes: proposed, applied as shown, kept, rolled back. */
    public FixService fixes() {
        return fixes;
    }

    public PassthroughService passthrough() {
        return passthrough;
    }

    /** The task log: what was done through GPUForge, kept as an audit trail. */
    public TaskLog taskLog() {
        return taskLog;
    }

    /** Which host does the host-level work of a hypervisor node. */
    public HostLinks hostLinks() {
        return hostLinks;
    }

    /** "Test connection" for every kind of connection. */
    public ConnectionTester tester() {
        return tester;
    }

    /** Opens VM consoles (noVNC in the browser, virt-viewer). */
    public ConsoleLauncher consoles() {
        return consoles;
    }

    /** The passthrough verdicts of a node's GPUs. */
    public NodeReadiness readiness() {
        return readiness;
    }

    /** The open hypervisor connections (Proxmox VE, Demo lab, libvirt), shared by pages and commands. */
    public Sessions sessions() {
        return sessions;
    }

    public ConnectionsService connections() {
        return connections;
    }

    /** GPU telemetry: live readings, history, energy, power limits. */
    public TelemetryService telemetry() {
        return monitor.telemetry;
    }

    /** VM templates: built-in and the user's. */
    public TemplateService templates() {
        return templates;
    }

    /** Creating VMs from templates (the wizard, gpuforge vm create). */
    public VmProvisioning provisioning() {
        return provisioning;
    }

    /** Where fired and cleared alerts are posted (the settings' webhook), with its counters. */
    public AlertWebhook webhook() {
        return monitor.webhook;
    }

    /** GPU alerts: the rules, evaluated on every reading the monitor receives. */
    public AlertService alerts() {
        return monitor.alerts;
    }

    /** What the GPUs cost: tariff, hardware depreciation, cloud comparison. */
    public CostService costs() {
        return monitor.costs;
    }

    /** Every GPU on every connection, live while the GPU monitor looks. */
    public GpuFleet fleet() {
        return monitor.fleet;
    }

    /** Proxmox VE PCI resource mappings no VM uses, and their removal. */
    public PciMappings pciMappings() {
        return pciMappings;
    }

    /** The Demo lab's simulated hosts (tests and the Demo lab's switches). */
    public DemoLab demoLab() {
        return demoLab;
    }

    public Optional<Boolean> osPrefersDark() {
        return osPrefersDark;
    }

    @Override
    public void close() {
        try {
            settings.close();
        } catch (IOException e) {
            LOG.error("Settings could not be saved at exit", e);
        }
        monitor.close();
        prompts.clear();
        sessions.close();
        executors.close();
        database.close();
    }
}
