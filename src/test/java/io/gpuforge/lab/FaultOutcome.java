package io.gpuforge.lab;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Where a host stands after a failed apply, judged from the guest itself: untouched (files, boot configuration and
 * initramfs as before), fully applied (all as planned), or in between, with the details.
 */
record FaultOutcome(State state, String details) {

    enum State { UNTOUCHED, APPLIED, HALF }

    private static final Pattern SAYS_UNTOUCHED = Pattern.compile(
            "(?i)(nothing was changed|untouched|was restored|were restored|not applied|nothing changed"
                    + "|boots with its original settings|as it was before the apply)");
    private static final Pattern SAYS_APPLIED = Pattern.compile("(?i)(?<!not )\\bapplied\\b");

    static FaultOutcome judge(LabHost host, JsonNode plan, Map<String, Optional<byte[]>> before, String argsBefore,
                              List<String> plannedArgs) throws IOException {
        List<String> paths = LabHost.paths(plan);
        Map<String, Optional<byte[]>> now = host.snapshot(paths);
        List<String> notBefore = LabHost.differences(before, now);
        List<String> notPlanned = LabHost.differences(LabHost.planned(plan), now);
        String args = host.nextBootArgs();
        boolean argsOriginal = args.equals(argsBefore);
        boolean argsPlanned = plannedArgs.stream().allMatch(a -> (" " + args + " ").contains(" " + a + " "));
        boolean initramfsVfio = host.nextInitramfsHasVfioOptions();
        String details = "files changed: " + notBefore + ", files not as planned: " + notPlanned
                + "; next boot's command line: \"" + args + "\" (before: \"" + argsBefore + "\")"
                + "; next initramfs has gpuforge-vfio.conf: " + initramfsVfio;
        if (notBefore.isEmpty() && argsOriginal && !initramfsVfio) {
            return new FaultOutcome(State.UNTOUCHED, details);
        }
        if (notPlanned.isEmpty() && argsPlanned && initramfsVfio) {
            return new FaultOutcome(State.APPLIED, details);
        }
        return new FaultOutcome(State.HALF, details);
    }

    /**
     * Whether 'gpuforge rollback --status' names this state in its words. A host whose refresh command failed again
     * when the restore re-ran it is untouched in effect (the command never replaced its boot file) while its journal
     * stays open for rollback to re-run it: then the status says interrupted, and the apply must have said that the
     * host still boots with its original settings.
     */
    boolean saidByStatus(String statusOutput, String applyOutput) {
        switch (state) {
            case UNTOUCHED:
                return statusOutput.contains("untouched (restored)") || statusOutput.contains("no GPUForge apply")
                        || statusOutput.contains("interrupted: run gpuforge rollback")
                        && applyOutput.contains("still boots with its original settings");
            case APPLIED:
                return statusOutput.contains("fully applied");
            default:
                return false;
        }
    }

    /** Whether what the CLI printed names this state. */
    boolean saidBy(String cliOutput) {
        switch (state) {
            case UNTOUCHED:
                return SAYS_UNTOUCHED.matcher(cliOutput).find();
            case APPLIED:
                return SAYS_APPLIED.matcher(cliOutput).find() && !SAYS_UNTOUCHED.matcher(cliOutput).find();
            default:
                return false;
        }
    }
}
