package io.gpuforge.domain.host;

import java.util.List;
import java.util.Optional;

/**
 * Where a failed apply or rollback left the host: the files put back and those not, the refresh commands
 * re-run and those that failed or were not run, and the journal's state on the host (empty: unknown, it
 * could not be read or written).
 */
public record HostChangeState(List<String> filesRestored, List<String> filesNotRestored, List<String> commandsRerun,
                        List<String> commandsFailed, List<String> commandsPending,
                        Optional<JournalState> journal) {
    public HostChangeState {
        filesRestored = List.copyOf(filesRestored);
        filesNotRestored = List.copyOf(filesNotRestored);
        commandsRerun = List.copyOf(commandsRerun);
        commandsFailed = List.copyOf(commandsFailed);
        commandsPending = List.copyOf(commandsPending);
    }

    /** Every file restored and every command that needed it re-run. */
    public boolean restored() {
        return filesNotRestored.isEmpty() && commandsFailed.isEmpty() && commandsPending.isEmpty();
    }
}
