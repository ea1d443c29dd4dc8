package io.gpuforge.app.passthrough;

import io.gpuforge.app.host.HostReboot;
import io.gpuforge.app.session.ConnectionSession;
import io.gpuforge.domain.BackendException;
import io.gpuforge.domain.vm.VmRef;
import java.util.ArrayList;
import java.util.List;

/**
 * Every check of a passthrough that can refuse, run before its first change, so that nothing is written, applied or
 * rebooted for a chain that would stop later: the VM's side ({@link AttachPreflight}: the card free, the VM's own GPUs,
 * the hypervisor's dry run of the attach) and the node's running guests when a reboot is planned (never rebooted
 * under them). What passes becomes the {@link PassthroughProposal} shown to the user. Reads only. Blocking.
 */
final class PassthroughPreflight {

    /** The checks refused: every reason, each with what to do. */
    static final class Refused extends Exception {
        private static final long serialVersionUID = 1L;

        Refused(List<String> reasons) {
            super(reasons.size() == 1 ? reasons.get(0) + ". Nothing was changed"
                    : "nothing was changed, for " + reasons.size() + " reasons:\n  - " + String.join("\n  - ", reasons));
        }
    }

    private final AttachPreflight attach;

    PassthroughPreflight(AttachPreflight attach) {
        this.attach = attach;
    }

    /** The plan of the whole passthrough, or every reason it cannot go ahead. */
    PassthroughProposal propose(PassthroughChain.Request r, PassthroughStatus status) throws Refused, BackendException {
        ConnectionSession s = r.session();
        VmRef vm = r.vm();
        AttachPreflight.Result a = attach.check(s, vm, r.device(), r.primaryGpu(), r.held());
        List<String> refused = new ArrayList<>(a.refusals());
        boolean reboot = status.stage() == PassthroughStatus.Stage.CONFIGURED_NOT_REBOOTED
                || (status.stage() == PassthroughStatus.Stage.NEEDS_CHANGES
                        && status.plan().map(p -> p.rebootNeeded()).orElse(false));
        if (reboot) {
            List<String> running = HostReboot.runningGuests(s, vm.node());
            if (!running.isEmpty()) {
                refused.add(0, "the plan reboots " + vm.node() + " (" + s.connection().name() + "), and "
                        + HostReboot.underGuests(vm.node(), running));
            }
        }
        if (!refused.isEmpty()) {
            throw new Refused(refused);
        }
        return new PassthroughProposal(r.host().describe(), r.device(), vm, a.vmName(), status.stage(),
                status.plan().filter(p -> status.stage() == PassthroughStatus.Stage.NEEDS_CHANGES), reboot,
                a.changes(), a.version(), a.kept());
    }
}
