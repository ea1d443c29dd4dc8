package io.gpuforge.cli.vm;

import io.gpuforge.cli.common.CliCommand;
import io.gpuforge.app.AppContext;
import io.gpuforge.app.session.ConnectionSession;
import io.gpuforge.app.vmcreate.FirstBootProvisioning;
import io.gpuforge.app.vmcreate.PasswordHash;
import io.gpuforge.app.vmcreate.TemplateService;
import io.gpuforge.app.vmcreate.VmProvisioning;
import io.gpuforge.domain.BackendException;
import io.gpuforge.domain.vm.CloudInit;
import io.gpuforge.domain.connections.ConnectionInfo;
import io.gpuforge.domain.vm.VmInfo;
import io.gpuforge.domain.vm.VmRef;
import io.gpuforge.domain.vm.VmTemplate;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import io.gpuforge.cli.common.CliServices;
import io.gpuforge.cli.common.HypervisorTarget;
import io.gpuforge.cli.common.VmTarget;

/**
 * {@code gpuforge vm provision VM --template NAME (--pve URL | --connection NAME) [--node N] [--user U] [--ssh-key FILE]…
 * [--password-stdin] [--var NAME=VALUE|NAME=@-|NAME=@FILE]… [--var-file FILE]… [--json]}: the template's cloud-init user-data run in a Proxmox VE VM over
 * its guest agent, for a VM made where no snippet could be written (started first when it is stopped).
 */
@Command(name = "provision", mixinStandardHelpOptions = true, description = "Run a template's cloud-init setup in a"
        + " Proxmox VE VM over its QEMU guest agent (starting the VM when it is stopped): for a VM whose user-data"
        + " could not go to the node as a snippet.")
final class VmProvisionCommand extends CliCommand {
    @Parameters(index = "0", paramLabel = "VM", description = "The VM, by id or name.")
    String vm;
    @Option(names = "--template", paramLabel = "NAME", required = true, description = "The template the VM was made"
            + " from (id or name).")
    String template;
    @Mixin
    HypervisorTarget target = new HypervisorTarget();
    @Option(names = "--name", paramLabel = "HOST", description = "The host name (default: the VM's name).")
    String name;
    @Option(names = "--ssh-key", paramLabel = "FILE", description = "SSH public key file for the user (repeat).")
    List<Path> sshKeys = new ArrayList<>();
    @Option(names = "--user", paramLabel = "USER", defaultValue = "gpuforge", description = "The VM's user (default:"
            + " ${DEFAULT-VALUE}).")
    String user;
    @Option(names = "--password-stdin", description = "Read the user's password from the first line of stdin.")
    boolean passwordStdin;
    @Option(names = "--var", paramLabel = "NAME=VALUE", description = "A value the template asks for (SLURM_CONTROLLER=…);"
            + " NAME=@- reads it from the next line of stdin, NAME=@FILE from a file: use those for secrets.")
    Map<String, String> vars = new LinkedHashMap<>();
    @Option(names = "--var-file", paramLabel = "FILE", description = "Values the template asks for, one NAME=VALUE a"
            + " line (# comments): the way to give secrets such as K8S_TOKEN or MUNGE_KEY (repeat).")
    List<Path> varFiles = new ArrayList<>();

    VmProvisionCommand(CliServices services) {
        super(services);
    }

    @Override
    public Integer call() throws Exception {
        try (AppContext ctx = VmCommand.context(services)) {
            VmTemplate t = ctx.templates().find(template).orElseThrow(() -> new IllegalArgumentException("no template '"
                    + template + "': gpuforge vm templates lists them"));
            VmTarget on = target.vm(services, ctx, vm);
            ConnectionInfo c = on.connection();
            ConnectionSession session = on.session();
            VmRef ref = on.ref();
            String host = name != null ? name : session.inventory().vm(ref).map(VmInfo::name).orElse(ref.id());
            CloudInit ci = cloudInit();
            Map<String, String> values = TemplateValues.read(t, vars, varFiles, services);
            VmProvisioning.Request r = new VmProvisioning.Request(new VmProvisioning.Target(c, ref.node()), t, host,
                    t.cores(), t.memoryMiB(), t.diskGiB(), "", "", t.cpuType(), Optional.of(ci), values, Optional.empty(),
                    true);
            List<String> log = new ArrayList<>();
            FirstBootProvisioning.Outcome o = ctx.provisioning().provision(r, ref, line -> {
                log.add(line);
                if (json.progress()) {
                    services.output().line(line);
                }
            }, () -> false);
            if (json.enabled()) {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("ok", o.ok());
                m.put("vm", Map.of("node", ref.node(), "id", ref.id(), "name", host));
                m.put("way", "guest-agent");
                m.put("file", FirstBootProvisioning.USER_DATA_FILE);
                m.put("modules", o.modulesRun());
                o.failedModule().ifPresent(f -> m.put("failedModule", f));
                m.put("message", o.message());
                m.put("log", log);
                services.output().json(m);
            } else if (!o.ok()) {
                services.output().error("gpuforge vm provision: " + o.message());
            }
            return o.ok() ? 0 : 1;
        } catch (BackendException | IllegalArgumentException | TemplateService.Failure | IOException e) {
            return failed("vm provision", e);
        }
    }

    private CloudInit cloudInit() throws IOException {
        List<String> keys = new ArrayList<>();
        keys.addAll(SshKeyFiles.read(sshKeys));
        Optional<String> pw = passwordStdin ? PasswordHash.of(services.readLine()) : Optional.empty();
        return new CloudInit(user, pw, keys, new CloudInit.Dhcp(), List.of(), Optional.empty(), Optional.empty());
    }
}
