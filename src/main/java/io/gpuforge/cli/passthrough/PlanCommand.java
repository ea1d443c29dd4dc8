package io.gpuforge.cli.passthrough;

import io.gpuforge.cli.common.CliCommand;
import io.gpuforge.cli.common.EnglishWords;
import io.gpuforge.app.host.HostReading;
import io.gpuforge.domain.host.HostException;
import io.gpuforge.domain.passthrough.PassthroughPlan;
import io.gpuforge.domain.pci.PciAddress;
import io.gpuforge.domain.passthrough.PlanBlockedException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import io.gpuforge.cli.common.CliOutput;
import io.gpuforge.cli.common.CliServices;
import io.gpuforge.cli.common.HostSource;

/** {@code gpuforge plan}: what passthrough of a device would change, as diffs and commands. Changes nothing. */
@Command(name = "plan", mixinStandardHelpOptions = true,
        description = "Show the passthrough plan for a device: file diffs, commands, reboot, VM changes.")
public final class PlanCommand extends CliCommand {
    @Mixin
    HostSource source = new HostSource();

    @Mixin
    PlanFlags plan = new PlanFlags();

    PlanCommand(CliServices services) {
        super(services);
    }

    @Override
    public Integer call() throws IOException {
        PassthroughPlan result;
        try {
            HostReading reading = source.read(services);
            if (!reading.isHost()) {
                services.output().error("gpuforge plan: a plan needs a host (--local, --ssh or --sysroot), not a listing");
                return 2;
            }
            result = services.standalone().passthrough().plan(reading, PciAddress.parse(plan.device), plan.options());
        } catch (HostException e) {
            services.output().error("gpuforge plan: " + e.getMessage());
            return 1;
        } catch (PlanBlockedException e) {
            services.output().error("gpuforge plan: " + e.getMessage() + " (see gpuforge check --device " + plan.device + ")");
            return 1;
        } catch (IllegalArgumentException e) {
            services.output().error("gpuforge plan: " + e.getMessage());
            return 2;
        }
        print(services.output(), result, json.enabled());
        return 0;
    }

    static void print(CliOutput o, PassthroughPlan plan, boolean json) {
        if (json) {
            o.json(toJson(plan));
            return;
        }
        o.line("Plan " + plan.id() + " for " + plan.functions() + " on " + plan.host());
        if (plan.hostChangesNothing()) {
            o.line("The host is already set up for this card: nothing to change.");
        }
        for (PassthroughPlan.FileEdit e : plan.edits()) {
            o.out().print(e.diff());
        }
        for (String c : plan.commands()) {
            o.line("$ " + c);
        }
        o.line(plan.rebootNeeded() ? "A reboot is needed afterwards." : "No reboot needed.");
        for (PassthroughPlan.VmChange v : plan.vmChanges()) {
            o.line("[" + v.hypervisor() + "] " + v.description() + ":\n" + v.snippet());
        }
        plan.notes().forEach(n -> o.line("Note: " + EnglishWords.of(n)));
        o.out().flush();
    }

    static Map<String, Object> toJson(PassthroughPlan plan) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", plan.id());
        m.put("host", plan.host());
        m.put("functions", plan.functions().stream().map(PciAddress::toString).toList());
        List<Object> edits = new ArrayList<>();
        for (PassthroughPlan.FileEdit e : plan.edits()) {
            Map<String, Object> j = new LinkedHashMap<>();
            j.put("path", e.path());
            j.put("before", e.before().orElse(null));
            j.put("after", e.after());
            j.put("diff", e.diff());
            edits.add(j);
        }
        m.put("edits", edits);
        m.put("commands", plan.commands());
        m.put("reboot", plan.rebootNeeded());
        List<Object> vm = new ArrayList<>();
        for (PassthroughPlan.VmChange v : plan.vmChanges()) {
            vm.add(Map.of("hypervisor", v.hypervisor(), "description", v.description(), "snippet", v.snippet()));
        }
        m.put("vm_changes", vm);
        m.put("notes", EnglishWords.of(plan.notes()));
        return m;
    }

    /**
     * Shows the plan (not with --json: stdout is the result) and asks {@code question} with [y/N], unless
     * {@code yes}; the plan-changing commands (apply, passthrough) share it.
     */
    static boolean confirm(CliServices services, PassthroughPlan p, boolean json, boolean yes, String question) {
        CliOutput o = services.output();
        if (!json) {
            print(o, p, false);
        }
        if (yes) {
            return true;
        }
        return services.confirm(question);
    }
}
