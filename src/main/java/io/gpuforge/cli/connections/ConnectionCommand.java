package io.gpuforge.cli.connections;

import io.gpuforge.app.AppContext;
import io.gpuforge.app.backends.ConnectionTester;
import io.gpuforge.cli.common.CliCommand;
import io.gpuforge.domain.connections.ConnectionInfo;
import io.gpuforge.domain.connections.ConnectionOptions;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import io.gpuforge.cli.common.CliOutput;
import io.gpuforge.cli.common.CliServices;
import io.gpuforge.cli.common.PveLogin;

/**
 * {@code gpuforge connection list|add|remove|test}: the saved connections the window's tree shows, over the same
 * service (a secret goes to the secret store, never into the database or a log).
 */
@Command(name = "connection", mixinStandardHelpOptions = true, description = "The saved connections: list, add,"
        + " remove, test.", subcommands = {ConnectionCommand.ListConnections.class, ConnectionCommand.Add.class,
        ConnectionCommand.Remove.class, ConnectionCommand.Test.class})
public final class ConnectionCommand implements Runnable {

    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /** The saved connection called {@code name}; refused, naming it, when there is none (every command's lookup). */
    static Map<String, Object> json(ConnectionInfo c) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", c.name());
        m.put("kind", c.kind().db());
        m.put("address", c.address());
        m.put("user", c.username());
        m.put("secret", c.secretRef().isPresent());
        c.tlsFingerprint().ifPresent(f -> m.put("fingerprint", f));
        return m;
    }

    @Command(name = "list", mixinStandardHelpOptions = true, description = "List the saved connections.")
    static final class ListConnections extends CliCommand {
        ListConnections(CliServices services) {
            super(services);
        }

        @Override
        public Integer call() throws Exception {
            try (AppContext ctx = services.openContext()) {
                List<ConnectionInfo> all = ctx.connections().all();
                if (json.enabled()) {
                    services.output().json(Map.of("connections", all.stream().map(ConnectionCommand::json).toList()));
                } else {
                    all.forEach(c -> services.output().line(String.format(Locale.ROOT, "%-24s %-8s %s%s", c.name(),
                            c.kind().db(), c.address(), c.username().isEmpty() ? "" : "  (" + c.username() + ")")));
                }
                return 0;
            }
        }
    }

    @Command(name = "add", mixinStandardHelpOptions = true, description = {"Save a connection.",
            "A Proxmox VE cluster (--pve URL) is logged in to first, as the window's form does: its API token"
                    + " (--token-stdin or GPUFORGE_PVE_TOKEN) or password (--pve-user USER@REALM --pve-password-stdin)"
                    + " goes to the secret store, and a certificate the system does not trust is refused with its"
                    + " fingerprint, to pin with --fingerprint once you checked it is the cluster's."})
    static final class Add extends CliCommand {
        static final class Kind {
            @Option(names = "--demo", description = "The Demo lab (a simulated Proxmox VE cluster).")
            boolean demo;
            @Option(names = "--pve", paramLabel = "URL", description = "A Proxmox VE cluster (https://host:8006).")
            String pve;
            @Option(names = "--libvirt", paramLabel = "URI", description = "A libvirt host (qemu:///system, qemu+ssh://…).")
            String libvirt;
            @Option(names = "--ssh", paramLabel = "USER@HOST[:PORT]", description = "An SSH host (agent, keys).")
            String ssh;
        }

        @Parameters(index = "0", paramLabel = "NAME", description = "The connection's name, as the tree shows it.")
        String name;
        @ArgGroup(exclusive = true, multiplicity = "1")
        Kind kind = new Kind();
        @Option(names = "--sudo", description = "SSH: run host commands through sudo -n.")
        boolean sudo;
        @Option(names = "--reset", description = "With --demo: start the Demo lab afresh (its VMs, containers,"
                + " mappings and hosts' files as the first time); a Demo lab saved already is kept, only reset.")
        boolean reset;
        @Mixin
        PveLogin login = new PveLogin();

        Add(CliServices services) {
            super(services);
        }

        @Override
        public Integer call() throws Exception {
            if (login.given() && kind.pve == null) {
                services.output().error("gpuforge connection add: --fingerprint, --token-stdin, --pve-user and"
                        + " --pve-password-stdin go with --pve URL");
                return 2;
            }
            if (reset && !kind.demo) {
                services.output().error("gpuforge connection add: --reset goes with --demo");
                return 2;
            }
            try (AppContext ctx = services.openContext()) {
                ConnectionInfo c;
                Optional<ConnectionInfo> demo = reset ? ctx.connections().all().stream().filter(x -> x.name().equals(name)
                        && x.kind() == ConnectionInfo.Kind.DEMO).findFirst() : Optional.empty();
                if (reset) {
                    ctx.demoLab().reset();
                }
                if (demo.isPresent()) {
                    if (json.enabled()) {
                        services.output().json(json(demo.get()));
                    } else {
                        services.output().line("reset " + name + ": the Demo lab starts afresh");
                    }
                    return 0;
                }
                if (kind.pve != null) {
                    Optional<ConnectionInfo> saved = ProxmoxAdd.add(ctx, services, name, kind.pve, login);
                    if (saved.isEmpty()) {
                        return 1;
                    }
                    c = saved.get();
                } else if (kind.demo) {
                    c = ctx.connections().addDemo(name);
                } else if (kind.libvirt != null) {
                    c = ctx.connections().addLibvirt(name, kind.libvirt);
                } else {
                    c = ctx.connections().addSsh(name, kind.ssh, Optional.empty(), sudo
                            ? ConnectionOptions.ssh(true, Optional.empty(), true) : ConnectionOptions.none());
                }
                if (json.enabled()) {
                    services.output().json(json(c));
                } else {
                    services.output().line("saved " + c.name() + " (" + c.kind().db() + " " + c.address() + ")");
                }
                return 0;
            } catch (IllegalArgumentException e) {
                services.output().error("gpuforge connection add: " + e.getMessage());
                return 2;
            }
        }
    }

    /** A subcommand on one saved connection, by name: found (or refused) and its failure worded once. */
    abstract static class OneConnection extends CliCommand {
        @Parameters(index = "0", paramLabel = "NAME")
        String name;
        private final String verb;

        OneConnection(CliServices services, String verb) {
            super(services);
            this.verb = verb;
        }

        abstract int run(AppContext ctx, ConnectionInfo c) throws Exception;

        @Override
        public final Integer call() throws Exception {
            try (AppContext ctx = services.openContext()) {
                return run(ctx, CliServices.savedConnection(ctx, name));
            } catch (IllegalArgumentException e) {
                return failed("connection " + verb, e);
            }
        }
    }

    @Command(name = "remove", mixinStandardHelpOptions = true, description = "Forget a saved connection and its"
            + " secret.")
    static final class Remove extends OneConnection {
        Remove(CliServices services) {
            super(services, "remove");
        }

        @Override
        int run(AppContext ctx, ConnectionInfo c) throws Exception {
            ctx.connections().remove(c.id());
            if (json.enabled()) {
                services.output().json(Map.of("removed", c.name()));
            } else {
                services.output().line("removed " + c.name());
            }
            return 0;
        }
    }

    @Command(name = "test", mixinStandardHelpOptions = true, description = "Connect to a saved connection and say"
            + " what it found: versions, nodes, VMs and the Proxmox VE privileges its login lacks.")
    static final class Test extends OneConnection {
        Test(CliServices services) {
            super(services, "test");
        }

        @Override
        int run(AppContext ctx, ConnectionInfo c) throws Exception {
            ConnectionTester.Report r = report(ctx, c);
            if (json.enabled()) {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("name", c.name());
                m.put("ok", r.ok());
                r.versions().ifPresent(v -> m.put("versions", v));
                r.nodes().ifPresent(n -> m.put("nodes", n));
                r.vms().ifPresent(n -> m.put("vms", n));
                m.put("missingPrivileges", r.missing().stream().map(Object::toString).toList());
                r.untrustedFingerprint().ifPresent(f -> m.put("untrustedFingerprint", f));
                r.field().ifPresent(f -> m.put("field", f.name().toLowerCase(Locale.ROOT)));
                m.put("message", r.message());
                services.output().json(m);
            } else if (r.ok()) {
                services.output().line(c.name() + ": " + r.versions().orElse("") + r.nodes().stream()
                        .mapToObj(n -> ", " + CliOutput.count(n, "node")).findFirst().orElse("")
                        + r.vms().stream().mapToObj(n -> ", " + CliOutput.count(n, "VM")
                                + " (templates apart)").findFirst().orElse(""));
                r.missing().forEach(m -> services.output().line("  lacks " + m));
            } else {
                services.output().error(c.name() + ": " + r.message() + r.untrustedFingerprint()
                        .map(f -> " (certificate " + f + ": add again with --fingerprint " + f + " if it is"
                                + " the cluster's)").orElse(""));
            }
            return r.ok() ? 0 : 1;
        }

        private static ConnectionTester.Report report(AppContext ctx, ConnectionInfo c) throws Exception {
            ConnectionTester t = ctx.tester();
            switch (c.kind()) {
                case DEMO:
                    return t.demo();
                case LIBVIRT:
                    return t.libvirt(c.address());
                case PROXMOX:
                    char[] secret = ctx.connections().secret(c).orElseThrow(() -> new IllegalArgumentException(
                            "the secret of '" + c.name() + "' is not in the secret store: add it again"));
                    return t.proxmox(new ConnectionTester.ProxmoxLogin(c.address(), c.username(), secret,
                            c.tlsFingerprint(), Optional.empty()));
                default:
                    // a host key not yet known is not accepted here: 'gpuforge iommu --ssh … --accept-new-host-key'
                    return t.ssh(c.username().isEmpty() ? c.address() : c.username() + "@" + c.address(),
                            ctx.connections().secret(c), c.options(), ctx.connections().passphrase(c),
                            (host, type, fingerprint) -> false);
            }
        }
    }
}
