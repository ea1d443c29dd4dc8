package io.gpuforge.app;

import io.gpuforge.demo.PveSimulator;
import io.gpuforge.demo.SimCluster;
import io.gpuforge.domain.ConnectionInfo;
import io.gpuforge.hypervisor.proxmox.PveApiException;
import io.gpuforge.hypervisor.proxmox.PveClient;
import io.gpuforge.hypervisor.proxmox.PveContract;
import io.gpuforge.hypervisor.proxmox.PveCredentials;
import io.gpuforge.hypervisor.proxmox.PveInventory;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Proxmox VE clusters for the UI; in this build the Demo lab: a simulated cluster started on loopback
 * HTTPS when first opened, reached through the same client a real cluster uses. Blocking: background only.
 */
public final class ProxmoxService implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ProxmoxService.class);
    private final PveContract contract = PveContract.load();
    private final SecretsService secrets;
    private PveSimulator demo;

    public ProxmoxService(SecretsService secrets) {
        this.secrets = secrets;
    }

    /** The outcome of "test connection": the version, or the certificate the user has to accept first. */
    public record Test(boolean ok, String message, Optional<String> untrustedFingerprint) {
    }

    public Test test(String url, String tokenId, char[] secret, Optional<String> pin) {
        try {
            PveClient c = new PveClient(url, new PveCredentials.Token(tokenId, new String(secret)), pin, contract);
            try {
                String v = c.get("/version", java.util.Map.of()).path("version").asText("?");
                return new Test(true, "Proxmox VE " + v, Optional.empty());
            } catch (PveApiException e) {
                if (e.kind() == PveApiException.Kind.TLS && pin.isEmpty() && c.serverFingerprint().isPresent()) {
                    return new Test(false, e.getMessage(), c.serverFingerprint());
                }
                return new Test(false, e.getMessage(), Optional.empty());
            }
        } catch (PveApiException | IllegalArgumentException e) {
            return new Test(false, e.getMessage(), Optional.empty());
        }
    }

    /** What the window shows of a cluster: in the product's own types. */
    public record Cluster(String version, java.util.List<String> nodes, java.util.List<io.gpuforge.domain.VmInfo> vms,
                          java.util.List<String> gpus) {
    }

    public Cluster cluster(ConnectionInfo c) throws PveApiException {
        PveInventory inv = inventory(c);
        java.util.List<io.gpuforge.domain.VmInfo> vms = inv.vms().stream().map(m -> new io.gpuforge.domain.VmInfo(
                new io.gpuforge.domain.VmRef(m.node(), String.valueOf(m.vmid())),
                m.vmid() + " " + m.name() + " @ " + m.node() + (m.template() ? " (template)" : ""),
                "running".equals(m.status()) ? io.gpuforge.domain.VmState.RUNNING : io.gpuforge.domain.VmState.STOPPED,
                m.template(), (int) m.cpus(), m.maxMemBytes(), java.util.Optional.empty())).toList();
        java.util.List<String> gpus = inv.gpus().stream().map(g -> g.id() + ": " + g.node() + " " + g.path() + " " + g.ids())
                .toList();
        return new Cluster(inv.version(), inv.nodes().stream().map(n -> n.name() + " (" + n.status() + ")").toList(), vms,
                gpus);
    }

    public PveInventory inventory(ConnectionInfo c) throws PveApiException {
        if (c.kind() == ConnectionInfo.Kind.PROXMOX) {
            char[] secret;
            try {
                secret = secrets.store().get(c.secretRef().orElse("")).orElseThrow(() -> new PveApiException(
                        PveApiException.Kind.AUTH, 0, "The API token secret of " + c.name() + " is not in the secret store",
                        java.util.Map.of(), null));
            } catch (io.gpuforge.store.secret.SecretStoreException e) {
                throw new PveApiException(PveApiException.Kind.AUTH, 0, "The secret store says: " + e.getMessage(),
                        java.util.Map.of(), e);
            }
            return PveInventory.read(new PveClient(c.address(), new PveCredentials.Token(c.username(), new String(secret)),
                    c.tlsFingerprint(), contract));
        }
        if (c.kind() != ConnectionInfo.Kind.DEMO) {
            throw new PveApiException(PveApiException.Kind.NOT_IMPLEMENTED, 0, c.kind() + " is not a Proxmox connection",
                    java.util.Map.of(), null);
        }
        PveSimulator sim = demo();
        return PveInventory.read(sim.tokenClient(contract));
    }

    private synchronized PveSimulator demo() throws PveApiException {
        if (demo == null) {
            try {
                demo = new PveSimulator(SimCluster.demo());
                LOG.info("Demo lab (simulated Proxmox VE) listening on {}", demo.url());
            } catch (java.io.IOException | java.security.GeneralSecurityException e) {
                throw new PveApiException(PveApiException.Kind.NETWORK, 0, "The Demo lab could not start: " + e.getMessage(),
                        java.util.Map.of(), e);
            }
        }
        return demo;
    }

    @Override
    public synchronized void close() {
        if (demo != null) {
            demo.close();
            demo = null;
        }
    }
}
