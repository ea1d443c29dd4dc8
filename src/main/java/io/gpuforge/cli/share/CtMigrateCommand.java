package io.gpuforge.cli.share;

import io.gpuforge.cli.common.CliCommand;
import io.gpuforge.cli.common.EnglishWords;
import io.gpuforge.app.host.HostTarget;
import io.gpuforge.app.passthrough.ApplyProgressLines;
import io.gpuforge.app.passthrough.PassthroughService;
import io.gpuforge.cli.common.CliOutput;
import io.gpuforge.cli.common.CliServices;
import io.gpuforge.cli.common.NodeTarget;
import io.gpuforge.cli.common.HostSource;
import io.gpuforge.domain.BackendException;
import io.gpuforge.domain.host.HostException;
import io.gpuforge.domain.passthrough.PassthroughPlan;
import io.gpuforge.domain.passthrough.PlanBlockedException;
import io.gpuforge.domain.share.ContainerInfo;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code gpuforge ct migrate CTID}: a container given its GPU the old way (raw cgroup rules and bind mounts, whose
 * device majors change between kernels) moved to devN entries, as a plan on its configuration file on the node:
 * shown as a diff, applied after confirmation, undone by {@code gpuforge rollback}.
 */
@Command(name = "migrate", mixinStandardHelpOptions = true, description = "Move a stopped container's GPU from the"
        + " old raw lxc lines to devN entries (a plan on /etc/pve/lxc/CTID.conf; gpuforge rollback undoes it).")
final class CtMigrateCommand extends CliCommand {
    @Parameters(index = "0", paramLabel = "CTID", description = "The container's id.")
    int vmid;
    @Mixin
    NodeOptions target = new NodeOptions();
    @Option(names = "--yes", description = "Apply without asking.")
    boolean yes;

    CtMigrateCommand(CliServices services) {
        super(services);
    }

    @Override
    public Integer call() throws Exception {
        CliOutput o = services.output();
        try (NodeTarget n = target.open(services)) {
            HostTarget host = n.requireHost();
            ContainerInfo ct = n.session().container(n.node(), vmid);
            Optional<PassthroughService.Applied> done = n.ctx().shares().migrate(host, vmid, ct.running(),
                    p -> confirm(o, p, host), new ApplyProgressLines(o::error, ApplyProgressLines.Style.TEXT,
                            !json.quiet), HostSource::refuseUnknownKey);
            if (done.isEmpty()) {
                o.error("gpuforge ct migrate: not applied.");
                return 1;
            }
            ContainerInfo after = n.session().container(n.node(), vmid);
            if (json.enabled()) {
                Map<String, Object> m = new LinkedHashMap<>(ShareJson.container(after));
                m.put("journal", done.get().outcome().journalId());
                o.json(m);
            } else {
                o.line("Container " + vmid + " (" + after.name() + ") now gets its GPU by devN (journal "
                        + done.get().outcome().journalId() + "; gpuforge rollback undoes it):");
                after.devices().forEach((i, d) -> o.line("  dev" + i + ": " + d.value()));
                after.lxc().forEach(l -> o.line("  kept: " + l.line()));
            }
            return 0;
        } catch (PlanBlockedException e) {
            o.error("gpuforge ct migrate: refused, nothing changed: " + e.getMessage());
            return 1;
        } catch (BackendException | HostException | IllegalArgumentException e) {
            return failed("ct migrate", e);
        }
    }

    private boolean confirm(CliOutput o, PassthroughPlan p, HostTarget host) {
        if (!json.enabled()) {
            p.edits().forEach(e -> e.diff().lines().forEach(o::line));
            p.notes().forEach(x -> o.line("Note: " + EnglishWords.of(x)));
        }
        if (yes) {
            return true;
        }
        return services.confirm("Apply it to " + host.describe() + "?");
    }
}
