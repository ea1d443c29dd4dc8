package io.gpuforge.cli.vm;

import io.gpuforge.cli.common.CliCommand;
import io.gpuforge.cli.common.EnglishWords;
import io.gpuforge.app.AppContext;
import io.gpuforge.app.vmcreate.FirstBootProvisioning;
import io.gpuforge.app.vmcreate.PasswordHash;
import io.gpuforge.app.vmcreate.SnippetCleanup;
import io.gpuforge.app.vmcreate.TemplateService;
import io.gpuforge.app.vmcreate.VmProvisioning;
import io.gpuforge.app.vmcreate.VmCreateResult;
import io.gpuforge.domain.BackendException;
import io.gpuforge.domain.vm.VmField;
import io.gpuforge.domain.vm.CloudInit;
import io.gpuforge.domain.GpuInfo;
import io.gpuforge.domain.SpecRefusedException;
import io.gpuforge.domain.vm.VmInfo;
import io.gpuforge.domain.vm.VmTemplate;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import io.gpuforge.cli.common.CliServices;
import io.gpuforge.cli.common.HypervisorTarget;

/**
 * {@code gpuforge vm create (--template NAME | --clone VMID [--linked]) (--pve URL --node N | --libvirt URI |
 * --connection NAME) …}.
 */
@Command(name = "create", mixinStandardHelpOptions = true, description = "Create a VM from a template, checked against"
        + " the node's free memory and storage; the GPU is attached and the VM started when asked.")
final class VmCreateCommand extends CliCommand {
    @Option(names = "--template", paramLabel = "NAME", description = "Template id or name.")
    String template;
    @Option(names = "--clone", paramLabel = "VMID", description = "Clone this Proxmox VE template VM instead (full"
            + " copy onto --storage, or --linked).")
    String clone;
    @Option(names = "--linked", description = "With --clone: a linked clone (its disks stay on the template's storage).")
    boolean linked;
    @Mixin
    HypervisorTarget target = new HypervisorTarget();
    @Option(names = "--name", paramLabel = "NAME", description = "VM name (default: the template's id and a number).")
    String name;
    @Option(names = "--cores", paramLabel = "C")
    Integer cores;
    @Option(names = "--memory", paramLabel = "MiB")
    Integer memory;
    @Option(names = "--disk", paramLabel = "GiB")
    Integer disk;
    @Option(names = "--storage", paramLabel = "S", description = "Storage (Proxmox VE) or pool (libvirt) for the disk.")
    String storage;
    @Option(names = "--network", paramLabel = "N", description = "Bridge (vmbr0) or libvirt network (default).")
    String network;
    @Option(names = "--cpu", paramLabel = "TYPE", description = "CPU type (default: the template's, usually host).")
    String cpu;
    @Option(names = "--gpu", paramLabel = "BDF|MAPPING", description = "A free GPU of the node to pass through.")
    String gpu;
    @Option(names = "--ssh-key", paramLabel = "FILE", description = "SSH public key file for the user (repeat).")
    List<Path> sshKeys = new ArrayList<>();
    @Option(names = "--user", paramLabel = "USER", defaultValue = "gpuforge", description = "The VM's user (default: ${DEFAULT-VALUE}).")
    String user;
    @Option(names = "--password-stdin", description = "Read the user's password from the first line of stdin.")
    boolean passwordStdin;
    @Option(names = "--ip", paramLabel = "CIDR", description = "A static address (192.0.2.10/24); DHCP without.")
    String ip;
    @Option(names = "--gateway", paramLabel = "IP")
    String gateway;
    @Option(names = "--dns", paramLabel = "IP", description = "DNS server (repeat).")
    List<String> dns = new ArrayList<>();
    @Option(names = "--var", paramLabel = "NAME=VALUE", description = "A value the template asks for (SLURM_CONTROLLER=…);"
            + " NAME=@- reads it from the next line of stdin, NAME=@FILE from a file: use those for secrets.")
    Map<String, String> vars = new LinkedHashMap<>();
    @Option(names = "--var-file", paramLabel = "FILE", description = "Values the template asks for, one NAME=VALUE a"
            + " line (# comments): the way to give secrets such as K8S_TOKEN or MUNGE_KEY (repeat).")
    List<Path> varFiles = new ArrayList<>();
    @Option(names = "--start", description = "Start the VM once it is made.")
    boolean start;
    @Option(names = "--dry-run", description = "Check and show what would be sent; create nothing.")
    boolean dryRun;

    VmCreateCommand(CliServices services) {
        super(services);
    }

    @Override
    public Integer call() throws Exception {
        try (AppContext ctx = VmCommand.context(services)) {
            if ((template == null) == (clone == null)) {
                throw new IllegalArgumentException("give --template NAME or --clone VMID (one of them)");
            }
            if (linked && clone == null) {
                throw new IllegalArgumentException("--linked goes with --clone VMID");
            }
            VmProvisioning.Target where = target.target(services, ctx);
            VmProvisioning.Choices c = ctx.provisioning().choices(where);
            Optional<VmProvisioning.Clone> from = Optional.empty();
            VmTemplate t;
            if (clone != null) {
                VmInfo source = c.cloneSources().stream().filter(v -> v.ref().id().equals(clone)
                        || v.name().equals(clone)).findFirst().orElseThrow(() -> new IllegalArgumentException("no"
                        + " template VM '" + clone + "' on " + where.connection().name() + (c.canClone() ? ""
                        : ": clones are Proxmox VE only")));
                from = Optional.of(ctx.provisioning().cloneSource(where, source).linked(linked));
                t = ctx.templates().describe(ctx.sessions().of(where.connection()).readConfig(source.ref()),
                        source.name());
                if (linked && storage == null) {
                    storage = from.get().sourceStorage().orElse(null);
                }
            } else {
                t = ctx.templates().find(template).orElseThrow(() -> new IllegalArgumentException("no template '"
                        + template + "': gpuforge vm templates lists them"));
            }
            VmProvisioning.Request r = request(t, where, c, from);
            List<VmProvisioning.Problem> problems = VmProvisioning.check(r, c);
            List<VmProvisioning.Problem> errors = problems.stream().filter(VmProvisioning.Problem::error).toList();
            if (!errors.isEmpty()) {
                // refused: one line, each problem by the option that sets it (the warnings are for a VM to be made)
                services.output().error("gpuforge vm create: " + String.join("; ", errors.stream()
                        .map(p -> option(p.field()) + ": " + EnglishWords.of(p.message())).toList()));
                return 2;
            }
            problems.stream().filter(p -> !p.error())
                    .forEach(p -> services.output().error("warning: " + EnglishWords.of(p.message())));
            if (dryRun) {
                services.output().line(VmProvisioning.preview(r, c));
                return 0;
            }
            java.util.Set<String> shown = new java.util.HashSet<>();
            VmCreateResult res = ctx.provisioning().create(r, line -> {
                if (json.progress()) {
                    services.output().line(line);
                    shown.add(line.strip());
                }
            }, () -> false);
            // the secrets leave the node once the first boot is done
            Optional<SnippetCleanup.Outcome> cleaned = res.started() && res.snippet().isPresent()
                    ? Optional.of(removeSnippet(ctx, res.snippet().get())) : Optional.empty();
            if (json.enabled()) {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("ok", res.outcome().ok());
                m.put("status", res.outcome().status());
                res.vm().ifPresent(v -> m.put("vm", Map.of("node", v.node(), "id", v.id(), "name", r.name())));
                res.config().ifPresent(cfg -> m.put("config", cfg.settings().isEmpty() ? Map.of("xml", cfg.document())
                        : shown(cfg.settings())));
                m.put("log", res.outcome().log());
                m.put("notes", res.notes());
                m.put("userData", userData(res));
                res.snippet().ifPresent(p -> {
                    Map<String, Object> sn = new LinkedHashMap<>();
                    sn.put("volume", p.userVolume());
                    sn.put("removed", false);
                    cleaned.ifPresent(o -> {
                        sn.put("removed", o.removed());
                        sn.put("message", o.message());
                    });
                    m.put("snippet", sn);
                });
                services.output().json(m);
            } else {
                // a note the progress already said is not said twice
                res.notes().stream().filter(n -> !shown.contains(n.strip()))
                        .forEach(n -> services.output().line("note: " + n));
                res.vm().ifPresent(v -> services.output().line("created " + r.name() + " (" + v.node() + "/" + v.id() + ")"));
            }
            if (res.setupFailed() && !json.enabled()) {
                services.output().error("gpuforge vm create: the VM was made, its setup did not finish: "
                        + res.firstBoot().get().message());
            }
            return res.outcome().ok() && !res.setupFailed() ? 0 : 1;
        } catch (SpecRefusedException e) {
            services.output().error("gpuforge vm create: " + String.join("; ", e.fields().entrySet().stream()
                    .map(x -> option(x.getKey()) + ": " + x.getValue()).toList()));
            return 2;
        } catch (BackendException | IllegalArgumentException | TemplateService.Failure e) {
            return failed("vm create", e);
        }
    }

    /** The option that sets a field, as the user typed it ("--memory"), for a refusal's one line. */
    static String option(VmField f) {
        switch (f) {
            case NAME:
                return "--name";
            case VMID:
                return "the VM id";
            case CORES:
                return "--cores";
            case MEMORY:
                return "--memory";
            case CPU_TYPE:
                return "--cpu";
            case DISK:
                return "--disk";
            case STORAGE:
                return "--storage";
            case NETWORK:
                return "--network";
            case IMAGE:
                return "the template's image";
            case CI_USER:
                return "--user";
            case CI_PASSWORD:
            case SSH_KEYS:
                return "--ssh-key/--password-stdin";
            case IP:
                return "--ip";
            case GATEWAY:
                return "--gateway";
            case DNS:
                return "--dns";
            case GPU:
                return "--gpu";
            case SOURCE:
                return "--clone";
            default:
                return "the request";
        }
    }

    private SnippetCleanup.Outcome removeSnippet(AppContext ctx, SnippetCleanup.Pending p) throws InterruptedException {
        if (json.progress()) {
            services.output().line("Waiting for the first boot to remove the cloud-init snippet (Ctrl-C leaves it;"
                    + " later: " + SnippetCleanup.later(p) + ")");
        }
        return ctx.provisioning().snippets().afterFirstBoot(p, line -> {
            if (json.progress()) {
                services.output().line(line);
            }
        }, () -> false, (host, type, fingerprint) -> false);
    }

    /** How the template's user-data went in: as a snippet, over the guest agent (now or later), or none. */
    private static Map<String, Object> userData(VmCreateResult res) {
        Map<String, Object> u = new LinkedHashMap<>();
        u.put("way", res.userDataWay().json());
        res.firstBoot().ifPresent(o -> {
            u.put("ok", o.ok());
            u.put("file", FirstBootProvisioning.USER_DATA_FILE);
            u.put("modules", o.modulesRun());
            o.failedModule().ifPresent(f -> u.put("failedModule", f));
            u.put("message", o.message());
        });
        return u;
    }

    private static Map<String, String> shown(Map<String, String> settings) {
        Map<String, String> out = new LinkedHashMap<>(new TreeMap<>(settings));
        out.computeIfPresent("cipassword", (k, v) -> "********");
        return out;
    }

    private VmProvisioning.Request request(VmTemplate t, VmProvisioning.Target where, VmProvisioning.Choices c,
                                           Optional<VmProvisioning.Clone> from) throws IOException {
        String vmName = name != null ? name : t.id() + "-" + (c.vms().size() + 1);
        String st = storage != null ? storage : c.diskStorages().stream().map(s -> s.name()).findFirst().orElse("");
        String net = network != null ? network : c.networks().stream().filter(n -> n.active()).map(n -> n.name())
                .findFirst().orElse("");
        Optional<GpuInfo> g = Optional.empty();
        if (gpu != null) {
            g = Optional.of(c.gpus().stream().filter(x -> x.address().toString().equals(gpu) || x.address().toString()
                    .equals("0000:" + gpu) || x.mapping().map(gpu::equals).orElse(false)).findFirst()
                    .orElseThrow(() -> new IllegalArgumentException("no GPU " + gpu + " on " + where.node())));
            if (g.get().assignedTo().isPresent()) {
                throw new IllegalArgumentException("GPU " + gpu + " is given to VM " + g.get().assignedTo().get().id());
            }
        }
        Optional<CloudInit> ci = Optional.empty();
        if (t.os() == VmTemplate.Os.LINUX) {
            List<String> keys = new ArrayList<>();
            keys.addAll(SshKeyFiles.read(sshKeys));
            Optional<String> pw = passwordStdin ? PasswordHash.of(services.readLine()) : Optional.empty();
            CloudInit.Ip address = ip == null ? new CloudInit.Dhcp() : new CloudInit.Static(ip, Optional.ofNullable(gateway));
            ci = Optional.of(new CloudInit(user, pw, keys, address, dns, Optional.empty(), Optional.empty()));
        }
        Map<String, String> values = TemplateValues.read(t, vars, varFiles, services);
        return new VmProvisioning.Request(where, t, vmName, cores != null ? cores : t.cores(), memory != null ? memory
                : t.memoryMiB(), disk != null ? disk : t.diskGiB(), st, net, cpu != null ? cpu : t.cpuType(), ci, values, g,
                start, from);
    }
}
