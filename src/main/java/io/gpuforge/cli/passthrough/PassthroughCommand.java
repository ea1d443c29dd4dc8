package io.gpuforge.cli.passthrough;

import io.gpuforge.app.AppContext;
import io.gpuforge.app.host.HostService;
import io.gpuforge.app.host.HostTarget;
import io.gpuforge.app.passthrough.AttachPreflight;
import io.gpuforge.app.passthrough.PassthroughChain;
import io.gpuforge.app.passthrough.PassthroughProposal;
import io.gpuforge.app.passthrough.PassthroughSteps;
import io.gpuforge.app.passthrough.PassthroughService;
import io.gpuforge.app.session.Sessions;
import io.gpuforge.cli.common.CliCommand;
import io.gpuforge.domain.BackendException;
import io.gpuforge.domain.passthrough.PlanOptions;
import io.gpuforge.domain.vm.VmRef;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import io.gpuforge.cli.common.CliOutput;
import io.gpuforge.cli.common.CliServices;
import io.gpuforge.cli.common.HostSource;

/**
 * {@code gpuforge passthrough}: the whole chain for one GPU and one VM: check → apply → reboot → verify → attach,
 * each step where the host's state needs it, with progress on stderr, stopping with the reason at the first failure.
 * The host is the node's linked host for {@code --connection} (the Demo lab's simulated host for its nodes), or the
 * one {@code --ssh}/{@code --local}/{@code --sysroot} names.
 */
@Command(name = "passthrough", mixinStandardHelpOptions = true,
        description = "Pass a GPU through to a VM from start to end: check, apply, reboot, verify, attach.")
public final class PassthroughCommand extends CliCommand {
    @Mixin
    VmOptions target = new VmOptions();

    @Mixin
    HostSource host = new HostSource();

    @Mixin
    OverrideOptions overrides = new OverrideOptions();

    @Option(names = "--blacklist", description = "Also blacklist the host drivers of the card.")
    boolean blacklist;

    @Option(names = "--primary", description = "The VM's primary display (x-vga=1 on Proxmox VE).")
    boolean primary;

    @Option(names = "--yes", description = "Apply (and reboot) without asking. A node that runs guests is never"
            + " rebooted: shut them down or migrate them first.")
    boolean yes;

    @Option(names = "--add-gpu", description = "The VM has a GPU already: give it this one as well (without it or"
            + " --replace-gpu, such a VM is refused).")
    boolean addGpu;

    @Option(names = "--replace-gpu", description = "The VM has a GPU already: give it this one instead; the one it"
            + " has is taken away in the same change.")
    boolean replaceGpu;

    @Option(names = "--dry-run", description = "Run every check and show the whole plan with its digest; change"
            + " nothing.")
    boolean dryRun;

    @Option(names = "--digest", paramLabel = "HEX", description = "Apply only the plan with this digest (as --dry-run"
            + " printed it), without asking; a host or VM that changed since is refused.")
    String digest;

    PassthroughCommand(CliServices services) {
        super(services);
    }

    @Override
    public Integer call() throws IOException {
        CliOutput o = services.output();
        try (VmOptions.Opened h = target.open(services)) {
            VmRef vm = target.vm(h.session);
            HostTarget where = hostOf(h, vm);
            PassthroughService passthrough = h.context.map(AppContext::passthrough).orElse(services.standalone().passthrough());
            HostService hosts = h.context.map(AppContext::hosts).orElse(services.standalone().hosts());
            Sessions sessions = h.context.map(AppContext::sessions).orElse(services.standalone().sessions());
            PassthroughChain chain = new PassthroughChain(passthrough, hosts, sessions);
            PassthroughChain.Request request = new PassthroughChain.Request(where, h.session, vm, target.device(),
                    new PlanOptions(overrides.overrides(), blacklist, Optional.of(vm.id())), primary, held());
            if (dryRun) {
                PassthroughProposal p = chain.propose(request, HostSource::refuseUnknownKey);
                if (json.enabled()) {
                    Map<String, Object> m = new LinkedHashMap<>();
                    m.put("status", "planned");
                    m.putAll(ProposalText.json(p));
                    o.json(m);
                } else {
                    ProposalText.print(o, p);
                    o.line("Nothing was changed (--dry-run). Apply exactly this plan with --digest " + p.digest() + ".");
                }
                return 0;
            }
            PassthroughChain.Outcome r = chain.run(request, p -> confirm(o, p, where), new PassthroughChain.Listener() {
                        @Override
                        public void step(PassthroughSteps.State step, String detail) {
                            if (!json.quiet) {
                                o.error("== " + step.name().toLowerCase(Locale.ROOT) + ": " + detail);
                            }
                        }

                        @Override
                        public void line(String text) {
                            if (!json.quiet) {
                                o.error("  " + text);
                            }
                        }

                        @Override
                        public void progress(String text) {
                            if (!json.quiet) {
                                o.status("  " + text);
                            }
                        }
                    }, () -> false, HostSource::refuseUnknownKey);
            if (json.enabled()) {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("status", "attached");
                m.put("digest", r.proposal().digest());
                m.put("host", where.describe());
                m.put("state_before", r.before().stage().name().toLowerCase(Locale.ROOT).replace('_', '-'));
                m.put("journal", r.applied().map(a -> a.outcome().journalId()).orElse(r.before().journalId().orElse(null)));
                m.put("rebooted", r.reboot().isPresent());
                m.put("verified", r.verify().map(PassthroughService.VerifyReport::ok).orElse(null));
                m.put("vm", vm.id());
                m.put("node", vm.node());
                m.put("changes", r.attached().changes());
                o.json(m);
            } else {
                o.line("GPU " + target.device + " passed through to VM " + vm.id() + " on " + vm.node() + ":");
                r.attached().changes().forEach(c -> o.line("  " + c));
            }
            return 0;
        } catch (PassthroughChain.Stopped e) {
            o.error("gpuforge passthrough: stopped at " + e.step().name().toLowerCase(Locale.ROOT) + ": " + e.getMessage());
            if (json.enabled()) {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("status", "stopped");
                m.put("step", e.step().name().toLowerCase(Locale.ROOT));
                m.put("error", e.getMessage());
                o.json(m);
            }
            return 1;
        } catch (DigestMoved e) {
            o.error("gpuforge passthrough: " + e.getMessage());
            return 1;
        } catch (BackendException e) {
            o.error("gpuforge passthrough: " + e.getMessage());
            return CliOutput.exit(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            o.error("gpuforge passthrough: interrupted");
            return 1;
        } catch (IllegalArgumentException e) {
            o.error("gpuforge passthrough: " + e.getMessage());
            return 2;
        }
    }

    /** The host: what --ssh/--host/--local/--sysroot name, else for a saved connection its node's linked host. */
    private HostTarget hostOf(VmOptions.Opened h, VmRef vm) throws IOException {
        boolean named = host.which.local || host.which.ssh != null || host.which.host != null
                || host.which.sysroot != null;
        if (!named && h.saved.isPresent()) {
            return new HostTarget.Linked(h.saved.get(), vm.node());
        }
        if (!named) {
            throw new IllegalArgumentException("name the VM's host, where the passthrough is set up: --ssh USER@HOST,"
                    + " --host NAME, --local for this computer, or --sysroot DIR (with --connection the node's linked host is used)");
        }
        return host.changeTarget(services);
    }

    private AttachPreflight.Held held() {
        if (addGpu && replaceGpu) {
            throw new IllegalArgumentException("--add-gpu keeps the VM's GPU, --replace-gpu takes it away: give one");
        }
        return addGpu ? AttachPreflight.Held.KEEP : replaceGpu ? AttachPreflight.Held.REPLACE
                : AttachPreflight.Held.REFUSE;
    }

    /**
     * Shows the whole plan (on stderr with --json, whose stdout is the result) and asks, unless --yes; with --digest
     * the plan must be that one.
     */
    private boolean confirm(CliOutput o, PassthroughProposal p, HostTarget where) {
        if (digest != null) {
            if (!p.digest().equalsIgnoreCase(digest.trim())) {
                throw new DigestMoved(p.digest());
            }
            return true;
        }
        if (!json.enabled()) {
            ProposalText.print(o, p);
        }
        if (yes) {
            return true;
        }
        return services.confirm((p.changesHost() ? "Apply these changes to " + where.describe() + ", " : "")
                + (p.reboot() ? "reboot " + p.vm().node() + " and " : "") + "give the GPU to VM " + p.vm().id() + "?");
    }

    /** The plan is not the one --digest names: nothing was changed. */
    private static final class DigestMoved extends RuntimeException {
        private static final long serialVersionUID = 1L;

        DigestMoved(String now) {
            super("the plan's digest is now " + now + ", not the one given: the host or the VM changed since it was"
                    + " shown. Nothing was changed; look at the plan again (--dry-run)");
        }
    }
}
