package io.gpuforge.host;

import java.util.List;
import java.util.Optional;

/**
 * An apply or rollback did not complete; the message says in which state the host was left, and {@link #host()}
 * says it item by item when GPUForge had started to change the host.
 */
public class ApplyException extends Exception {

    private static final long serialVersionUID = 1L;

    /**
     * Where a failed apply or rollback left the host: the files put back and those not, the refresh commands
     * re-run and those that failed or were not run, and the journal's state on the host (empty: unknown, it
     * could not be read or written).
     */
    public record HostState(List<String> filesRestored, List<String> filesNotRestored, List<String> commandsRerun,
                            List<String> commandsFailed, List<String> commandsPending,
                            Optional<Journal.State> journal) {
        public HostState {
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

    private final transient HostState host;

    public ApplyException(String message, Throwable cause) {
        this(message, cause, null);
    }

    public ApplyException(String message) {
        this(message, null, null);
    }

    public ApplyException(String message, Throwable cause, HostState host) {
        super(message, cause);
        this.host = host;
    }

    /** Where the host was left, when the apply or rollback had started to change it. */
    public Optional<HostState> host() {
        return Optional.ofNullable(host);
    }
}
