package io.gpuforge.app.backends;

import io.gpuforge.app.host.HostAccess;
import io.gpuforge.app.host.SimulatedHosts;
import io.gpuforge.app.connections.SecretsService;
import io.gpuforge.app.session.AdhocHypervisor;
import io.gpuforge.app.session.HypervisorFactory;
import io.gpuforge.demo.PveSimulator;
import io.gpuforge.demo.SimCluster;
import io.gpuforge.demo.SimHost;
import io.gpuforge.demo.SimHosts;
import io.gpuforge.demo.SimStore;
import io.gpuforge.domain.BackendException;
import io.gpuforge.domain.Capability;
import io.gpuforge.domain.connections.ConnectionInfo;
import io.gpuforge.domain.host.HostException;
import io.gpuforge.hypervisor.Hypervisor;
import io.gpuforge.hypervisor.proxmox.ProxmoxHypervisor;
import io.gpuforge.hypervisor.proxmox.PveApiException;
import io.gpuforge.hypervisor.proxmox.PveClient;
import io.gpuforge.hypervisor.proxmox.PveContract;
import io.gpuforge.hypervisor.proxmox.PveCredentials;
import io.gpuforge.hypervisor.proxmox.PveErrors;
import io.gpuforge.store.secret.SecretStoreException;
import java.io.IOException;
import java.security.GeneralSecurityException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one place that knows which backend serves which kind of connection: Proxmox VE (API token from the secret
 * store, certificate pinned by the accepted fingerprint), the Demo lab (a simulated cluster started on loopback
 * HTTPS on first use, reached through the same client), libvirt. The Demo lab's nodes have simulated hosts
 * ({@link SimHosts}) for their host-level work. Blocking: background threads only.
 */
public final class Backends implements HypervisorFactory, SimulatedHosts {

    private static final Logger LOG = LoggerFactory.getLogger(Backends.class);
    private final SecretsService secrets;
    private final PveContract contract = PveContract.load();
    private final LibvirtBackends libvirt;
    private final UserPrompts prompts;
    private PveSimulator demo;
    private SimHosts demoHosts;
    private final Optional<SimStore> demoStore;

    public Backends(SecretsService secrets, LibvirtBackends libvirt) {
        this(secrets, libvirt, UserPrompts.none());
    }

    /** @param prompts asked for a one-time code when a password login needs a second factor */
    public Backends(SecretsService secrets, LibvirtBackends libvirt, UserPrompts prompts) {
        this(secrets, libvirt, prompts, Optional.empty());
    }

    /**
     * @param demoLab where the Demo lab is kept across runs (its cluster's state and its hosts' trees); empty: it
     *                lives for this run only
     */
    public Backends(SecretsService secrets, LibvirtBackends libvirt, UserPrompts prompts, Optional<Path> demoLab) {
        this.secrets = secrets;
        this.libvirt = libvirt;
        this.prompts = prompts;
        this.demoStore = demoLab.map(SimStore::new);
    }

    @Override
    public Set<Capability> capabilities(ConnectionInfo.Kind kind) {
        switch (kind) {
            case PROXMOX:
            case DEMO:
                return ProxmoxHypervisor.CAPABILITIES;
            case LIBVIRT:
                return libvirt.capabilities();
            default:
                return Set.of();
        }
    }

    @Override
    public Hypervisor open(ConnectionInfo c) throws BackendException {
        switch (c.kind()) {
            case PROXMOX:
                return new ProxmoxHypervisor(proxmoxClient(c), c.address());
            case DEMO:
                try {
                    return new ProxmoxHypervisor(demo().tokenClient(contract), demo().url());
                } catch (PveApiException e) {
                    throw PveErrors.map(e);
                }
            case LIBVIRT:
                return libvirt.open(c.address());
            default:
                throw new BackendException(BackendException.Kind.UNSUPPORTED, c.name() + " is an SSH host, not a hypervisor");
        }
    }

    @Override
    public Hypervisor open(AdhocHypervisor a) throws BackendException {
        switch (a.kind()) {
            case PROXMOX: {
                char[] secret = a.secret().orElse(new char[0]);
                try {
                    PveCredentials credentials = a.passwordLogin() ? new PveCredentials.Password(a.user(), secret.clone())
                            : new PveCredentials.Token(a.user(), new String(secret));
                    return new ProxmoxHypervisor(new PveClient(a.address(), credentials, a.fingerprint(), contract),
                            a.address());
                } catch (PveApiException e) {
                    throw PveErrors.map(e);
                } catch (IllegalArgumentException e) {
                    throw new BackendException(BackendException.Kind.INVALID, e.getMessage(), e);
                } finally {
                    a.wipe();
                }
            }
            case LIBVIRT:
                return libvirt.open(a.address());
            default:
                throw new BackendException(BackendException.Kind.UNSUPPORTED, a.kind().db() + " is not a hypervisor kind"
                        + " that can be named on the spot");
        }
    }

    /**
     * A client for a saved cluster: its token secret (or its user's password) from the secret store, its accepted
     * certificate pinned. A password login that needs a second factor asks the prompts for the one-time code.
     */
    PveClient proxmoxClient(ConnectionInfo c) throws BackendException {
        String what = c.passwordLogin() ? "The password of " + c.username() : "The API token secret";
        char[] secret;
        try {
            secret = secrets.store().get(c.secretRef().orElse("")).orElseThrow(() -> new BackendException(
                    BackendException.Kind.AUTH, what + " of " + c.name() + " is not in the secret store"
                    + " (was it removed?): edit the connection and enter it again"));
        } catch (SecretStoreException e) {
            throw new BackendException(BackendException.Kind.AUTH, "The secret store says: " + e.getMessage(), e);
        }
        if (c.passwordLogin()) {
            // the client wipes it once it has its first ticket (it renews the ticket with itself)
            try {
                return new PveClient(c.address(), new PveCredentials.Password(c.username(), secret,
                        Optional.of(() -> prompts.oneTimeCode(c.name(), c.username()).orElse(""))), c.tlsFingerprint(),
                        contract);
            } catch (PveApiException e) {
                Arrays.fill(secret, '\0');
                throw PveErrors.map(e);
            }
        }
        try {
            return new PveClient(c.address(), new PveCredentials.Token(c.username(), new String(secret)), c.tlsFingerprint(),
                    contract);
        } catch (PveApiException e) {
            throw PveErrors.map(e);
        } finally {
            Arrays.fill(secret, '\0');
        }
    }

    /**
     * Removes a Proxmox PCI resource mapping ({@code DELETE /cluster/mapping/pci/{id}}); the caller made sure no VM
     * uses it. Proxmox VE and the Demo lab only.
     */
    void removePciMapping(ConnectionInfo c, String id) throws BackendException {
        if (!id.matches("[A-Za-z][A-Za-z0-9_-]*")) {
            throw new BackendException(BackendException.Kind.INVALID, "'" + id + "' is not a PCI resource mapping name");
        }
        PveClient client;
        switch (c.kind()) {
            case PROXMOX:
                client = proxmoxClient(c);
                break;
            case DEMO:
                try {
                    client = demo().tokenClient(contract);
                } catch (PveApiException e) {
                    throw PveErrors.map(e);
                }
                break;
            default:
                throw new BackendException(BackendException.Kind.UNSUPPORTED, c.name() + " has no PCI resource mappings"
                        + " (a Proxmox VE feature)");
        }
        try {
            client.delete("/cluster/mapping/pci/" + id, Map.of());
        } catch (PveApiException e) {
            throw PveErrors.map(e);
        }
    }

    /** The contract every Proxmox VE request is checked against (for the connection tester's clients). */
    PveContract contract() {
        return contract;
    }

    /** The Demo lab's simulated cluster, started on first use and kept for the run. */
    synchronized PveSimulator demo() throws BackendException {
        if (demo == null) {
            try {
                demo = new PveSimulator(SimCluster.demo());
                if (demoStore.isPresent()) {
                    demo.keptIn(demoStore.get());
                }
                LOG.info("Demo lab (simulated Proxmox VE) listening on {}", demo.url());
            } catch (IOException | GeneralSecurityException | RuntimeException e) {
                if (demo != null) {
                    demo.close();
                    demo = null;
                }
                throw new BackendException(BackendException.Kind.FAILED, "The Demo lab could not start: " + e.getMessage(), e);
            }
        }
        return demo;
    }

    /** The simulated hosts of the Demo lab's nodes (the lab is started when it does not run yet). */
    synchronized SimHosts demoHosts() throws BackendException {
        if (demoHosts == null) {
            demoHosts = demoStore.isPresent() ? new SimHosts(demo().cluster(), demoStore.get())
                    : new SimHosts(demo().cluster());
        }
        return demoHosts;
    }

    /** The simulated host of a Demo lab node, when it has one. */
    Optional<SimHost> demoHost(String node) throws HostException {
        try {
            return demoHosts().host(node);
        } catch (BackendException e) {
            throw new HostException(e.getMessage(), e);
        } catch (IOException e) {
            throw new HostException("The simulated host of " + node + " could not be made: " + e.getMessage(), e);
        }
    }

    @Override
    public Optional<HostAccess.Opened> open(ConnectionInfo c, String node) throws HostException {
        if (c.kind() != ConnectionInfo.Kind.DEMO) {
            return Optional.empty();
        }
        SimHost h = demoHost(node).orElseThrow(() -> new HostException("The Demo lab has no node " + node));
        if (!h.up()) {
            throw new HostException("The simulated host " + node + " (Demo lab) does not answer: it is rebooting, or"
                    + " down. Try again in a moment.");
        }
        return Optional.of(new HostAccess.Opened(h.shell(), Optional.empty(), false, "simulated:" + node + " (Demo lab)"));
    }

    @Override
    public Optional<Duration> rebootWait(ConnectionInfo c, String node) {
        if (c.kind() != ConnectionInfo.Kind.DEMO) {
            return Optional.empty();
        }
        try {
            return demoHost(node).map(SimHost::waitLimit);
        } catch (HostException e) {
            return Optional.empty();
        }
    }

    /**
     * Starts the Demo lab afresh: its cluster as built and its hosts made again, here and in every process that keeps
     * it in the same place (they read it at their next request). Nothing else is touched.
     */
    public synchronized void resetDemo() throws BackendException {
        if (demoStore.isEmpty()) {
            throw new BackendException(BackendException.Kind.INVALID, "This Demo lab is not kept: it starts afresh at"
                    + " every run already");
        }
        try {
            demoStore.get().reset(SimCluster.demo());
        } catch (RuntimeException e) {
            throw new BackendException(BackendException.Kind.FAILED, "The Demo lab could not be reset: " + e.getMessage(),
                    e);
        }
    }

    /** The Demo lab if it runs (for tests and the simulated hosts behind it). */
    public synchronized Optional<PveSimulator> demoIfRunning() {
        return Optional.ofNullable(demo);
    }

    @Override
    public synchronized void close() {
        if (demoHosts != null) {
            demoHosts.close();
            demoHosts = null;
        }
        if (demo != null) {
            demo.close();
            demo = null;
        }
    }
}
