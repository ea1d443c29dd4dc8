package io.gpuforge.app.diagnose;

import io.gpuforge.app.AppContext;
import io.gpuforge.demo.PveSimulator;
import io.gpuforge.domain.connections.ConnectionInfo;
import io.gpuforge.domain.connections.HostLink;
import io.gpuforge.host.ssh.HostKeyPolicy;
import io.gpuforge.host.ssh.SshShell;
import io.gpuforge.host.ssh.SshTarget;
import io.gpuforge.testing.SysrootSshServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/** The diagnosis tests' lab: the simulator saved as a token connection, a node linked to the embedded SSH server. */
final class LinkedLab {

    private LinkedLab() {
    }

    /** The simulator, saved as the Proxmox VE connection "lab" with its API token and pinned certificate. */
    static ConnectionInfo lab(AppContext ctx, PveSimulator sim) throws Exception {
        String token = sim.token();
        return ctx.connections().addProxmox("lab", sim.url(), token.substring(0, token.indexOf('=')),
                token.substring(token.indexOf('=') + 1).toCharArray(), Optional.of(sim.certificateFingerprint()));
    }

    /**
     * Trusts the SSH server's key, saves it as the host "NODE host" (its password in a new vault) and links the node
     * of {@code lab} to it.
     */
    static void linkSshHost(AppContext ctx, SysrootSshServer ssh, ConnectionInfo lab, String node) throws Exception {
        Path knownHosts = ctx.paths().configDir().resolve("known_hosts");
        Files.createDirectories(knownHosts.getParent());
        SshShell.connect(new SshTarget("root", "127.0.0.1", ssh.port()), new SshShell.Credentials(
                Optional.of(SysrootSshServer.PASSWORD.toCharArray()), Optional.empty(), Optional.empty()),
                knownHosts, HostKeyPolicy.acceptNew(), Duration.ofSeconds(20)).close();
        ConnectionInfo host = ctx.connections().addSsh(node + " host", "root@127.0.0.1:" + ssh.port(),
                Optional.of(SysrootSshServer.PASSWORD.toCharArray()));
        ctx.hostLinks().link(lab, node, new HostLink.SavedSsh(host.id()));
    }
}
