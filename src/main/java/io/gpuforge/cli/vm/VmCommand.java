package io.gpuforge.cli.vm;

import io.gpuforge.bounded.BoundedStreams;
import io.gpuforge.app.AppContext;
import io.gpuforge.app.vmcreate.TemplateService;
import io.gpuforge.cli.common.CliCommand;
import io.gpuforge.domain.vm.TemplateFormatException;
import io.gpuforge.domain.vm.VmTemplate;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;
import io.gpuforge.cli.common.CliOutput;
import io.gpuforge.cli.common.CliServices;
import io.gpuforge.cli.common.InputFile;

/**
 * {@code gpuforge vm}: templates, create, provision, list, the power actions, clone, template and config, over the
 * window's services.
 */
@Command(name = "vm", mixinStandardHelpOptions = true, description = "VM templates and VMs: templates, create, list,"
        + " start, shutdown, reboot, stop, delete, clone, template, config, console, provision, remove-snippet.",
        subcommands = {VmCommand.Templates.class, VmCreateCommand.class, VmProvisionCommand.class,
                       VmSnippetCommand.class, VmLifecycleCommands.ListVms.class,
                       VmLifecycleCommands.Start.class, VmLifecycleCommands.Shutdown.class,
                       VmLifecycleCommands.Stop.class, VmLifecycleCommands.Delete.class, VmCopyCommands.Reboot.class,
                       VmCopyCommands.Clone.class, VmCopyCommands.Template.class, VmCopyCommands.Config.class,
                       VmCopyCommands.Console.class})
public final class VmCommand implements Runnable {

    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    static AppContext context(CliServices services) throws IOException {
        return services.openContext();
    }

    /** {@code gpuforge vm templates [--json | --export FILE [--template ID]… | --import FILE]}. */
    @Command(name = "templates", mixinStandardHelpOptions = true, description = "List the VM templates, or export or"
            + " import them as a template file (JSON).")
    static final class Templates extends CliCommand {
        @Option(names = "--export", paramLabel = "FILE", description = "Write the templates (all user ones, or those"
                + " named with --template) to FILE.")
        Path export;

        @Option(names = "--template", paramLabel = "ID", description = "With --export: a template to write (repeat).")
        List<String> ids = new ArrayList<>();

        @Option(names = "--import", paramLabel = "FILE", description = "Add the templates of FILE; nothing is added"
                + " when one of them is wrong.")
        Path importFile;

        Templates(CliServices services) {
            super(services);
        }

        @Override
        public Integer call() throws Exception {
            try (AppContext ctx = context(services)) {
                TemplateService t = ctx.templates();
                if (importFile != null) {
                    TemplateService.Imported done = t.importJson(BoundedStreams.readString(
                            InputFile.require(importFile, "--import"), 16 << 20));
                    if (json.enabled()) {
                        services.output().json(Map.of("imported", done.added().stream().map(VmTemplate::id).toList(),
                                "renamed", done.renamed()));
                    } else {
                        done.added().forEach(x -> services.output().line("imported " + x.id() + ": " + x.name()));
                        done.renamed().forEach(x -> services.output().line("renamed " + x));
                    }
                    return 0;
                }
                if (export != null) {
                    List<String> chosen = ids.isEmpty() ? t.all().stream().filter(x -> !x.builtIn()).map(VmTemplate::id)
                            .toList() : ids;
                    Files.writeString(export, t.export(chosen), StandardCharsets.UTF_8);
                    services.output().line("wrote " + CliOutput.count(chosen.size(), "template") + " to " + export);
                    return 0;
                }
                List<VmTemplate> all = t.all();
                if (json.enabled()) {
                    services.output().json(Map.of("templates", all.stream().map(Templates::json).toList()));
                } else {
                    for (VmTemplate x : all) {
                        services.output().line(String.format(Locale.ROOT, "%-18s %-32s %3d cores %6d MiB %5d GiB  %-6s%s%s",
                                x.id(), x.name(), x.cores(), x.memoryMiB(), x.diskGiB(), CliOutput.count(x.gpus(), "GPU"),
                                x.uefi() ? "  UEFI" : "", x.builtIn() ? "  built-in" : ""));
                    }
                }
                return 0;
            } catch (TemplateFormatException | TemplateService.Failure e) {
                services.output().error("gpuforge vm templates: " + e.getMessage());
                return 1;
            }
        }

        static Map<String, Object> json(VmTemplate t) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("id", t.id());
            m.put("name", t.name());
            m.put("builtIn", t.builtIn());
            m.put("os", t.os().name().toLowerCase(Locale.ROOT));
            m.put("cores", t.cores());
            m.put("memoryMiB", t.memoryMiB());
            m.put("diskGiB", t.diskGiB());
            m.put("uefi", t.uefi());
            m.put("tpm", t.tpm());
            m.put("cpuType", t.cpuType());
            m.put("gpus", t.gpus());
            m.put("cloudInit", t.userData().isPresent());
            t.image().ifPresent(i -> m.put("image", i.url()));
            m.put("isos", t.isos());
            m.put("variables", t.variables().stream().map(VmTemplate.Variable::name).toList());
            return m;
        }
    }
}
