package io.gpuforge.cli.connections;

import io.gpuforge.app.AppContext;
import io.gpuforge.cli.common.CliCommand;
import io.gpuforge.domain.connections.ConnectionInfo;
import io.gpuforge.domain.connections.HostLink;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import io.gpuforge.cli.common.CliServices;
import io.gpuforge.cli.common.TerminalText;

/**
 * {@code gpuforge link}: which host does the host-level work (probe, plan, apply, verify, reboot, telemetry) of a
 * saved hypervisor connection's node. Without a target it shows the link (the user's, or GPUForge's guess).
 */
@Command(name = "link", mixinStandardHelpOptions = true,
        description = "Show or set the host (this computer or an SSH host) that does a node's host-level work.")
public final class LinkCommand extends CliCommand {
    static final class Target {
        @Option(names = "--local", description = "This computer.")
        boolean local;

        @Option(names = "--ssh-host", paramLabel = "NAME", description = "A saved SSH host, by name.")
        String sshHost;

        @Option(names = "--ssh", paramLabel = "USER@HOST[:PORT]",
                description = "An SSH address (agent, default keys and ~/.ssh/config).")
        String ssh;

        @Option(names = "--remove", description = "Forget the link (GPUForge guesses again).")
        boolean remove;
    }

    @Option(names = "--connection", required = true, paramLabel = "NAME", description = "A saved hypervisor connection.")
    String connection;

    @Option(names = "--node", required = true, paramLabel = "NODE", description = "The node (a libvirt host's name).")
    String node;

    @ArgGroup(exclusive = true)
    Target target = new Target();

    LinkCommand(CliServices services) {
        super(services);
    }

    /**
     * A node a Proxmox VE cluster (or the Demo lab) has not is refused (a typo would link nothing); one that cannot be
     * asked now is taken, as is any name for a libvirt host, which is its own one node.
     */
    private void knownNode(AppContext ctx, ConnectionInfo c) {
        if (c.kind() != ConnectionInfo.Kind.PROXMOX && c.kind() != ConnectionInfo.Kind.DEMO) {
            return;
        }
        try {
            io.gpuforge.cli.common.HypervisorTarget.requireNode(ctx.sessions().of(c), node);
        } catch (io.gpuforge.domain.BackendException e) {
            // the cluster does not answer: the link is the user's word until it does
        }
    }

    @Override
    public Integer call() throws IOException {
        try (AppContext ctx = services.openContext()) {
            ConnectionInfo c = named(ctx, connection, false);
            if (target.remove) {
                ctx.hostLinks().unlink(c, node);
            } else if (target.local || target.sshHost != null || target.ssh != null) {
                knownNode(ctx, c);
                ctx.hostLinks().link(c, node, target.local ? new HostLink.Local()
                        : target.sshHost != null ? new HostLink.SavedSsh(named(ctx, target.sshHost, true).id())
                        : new HostLink.Adhoc(target.ssh.strip()));
            }
            show(ctx, c, ctx.hostLinks().of(c, node));
            return 0;
        } catch (IllegalArgumentException e) {
            services.output().error("gpuforge link: " + e.getMessage());
            return 2;
        } catch (IOException e) {
            throw e;
        } catch (Exception e) {
            services.output().error("gpuforge link: cannot read or write the saved links: " + e.getMessage());
            return 1;
        }
    }

    private static ConnectionInfo named(AppContext ctx, String name, boolean ssh) throws Exception {
        ConnectionInfo c = CliServices.savedConnection(ctx, name);
        if (ssh != (c.kind() == ConnectionInfo.Kind.SSH)) {
            throw new IllegalArgumentException(ssh ? "'" + name + "' is not a saved SSH host"
                    : "'" + name + "' is an SSH host: link the nodes of a Proxmox VE or libvirt connection");
        }
        return c;
    }

    private void show(AppContext ctx, ConnectionInfo c, Optional<HostLink> link) throws Exception {
        boolean simulated = link.isEmpty() && c.kind() == ConnectionInfo.Kind.DEMO;
        String where = link.isPresent() ? describe(ctx, link.get().target())
                : simulated ? "the Demo lab's simulated host of " + node : "none";
        boolean guessed = link.map(HostLink::guessed).orElse(false);
        if (json.enabled()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("connection", c.name());
            m.put("node", node);
            m.put("host", link.map(l -> l.target().key()).orElse(null));
            m.put("describe", where);
            m.put("guessed", guessed);
            services.output().json(m);
            return;
        }
        if (simulated) {
            services.output().line(c.name() + " / " + node + " -> " + where + " (GPUForge's own scripts edit its files;"
                    + " nothing real changes). Apply, verify and roll back there with --connection \"" + c.name()
                    + "\" --node " + node + ".");
        } else if (link.isEmpty()) {
            services.output().line(c.name() + " / " + node + ": no host linked. Link one with --local, --ssh-host NAME"
                    + " or --ssh USER@HOST to plan, apply and verify passthrough on it.");
        } else {
            services.output().line(c.name() + " / " + node + " -> " + TerminalText.escape(where)
                    + (guessed ? " (guessed from the connection; confirm it with --local, --ssh-host or --ssh)" : ""));
        }
    }

    private static String describe(AppContext ctx, HostLink.Target t) throws Exception {
        if (t instanceof HostLink.Local) {
            return "this computer";
        }
        if (t instanceof HostLink.SavedSsh) {
            long id = ((HostLink.SavedSsh) t).connectionId();
            return ctx.connections().all().stream().filter(x -> x.id() == id).findFirst()
                    .map(x -> "SSH host " + x.name() + " (" + x.username() + "@" + x.address() + ")")
                    .orElse("a removed SSH host");
        }
        return "SSH " + ((HostLink.Adhoc) t).userAtHost();
    }
}
