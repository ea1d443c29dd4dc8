package io.gpuforge.domain.passthrough;

import java.util.List;
import java.util.Optional;

/** What an apply or rollback did. */
public record ApplyOutcome(String journalId, Status status, List<String> filesChanged, List<String> commandsRun,
                      List<String> commandsNotRun, Optional<String> backupDir) {
    public enum Status { APPLIED, NOTHING_TO_DO, ROLLED_BACK }
}
