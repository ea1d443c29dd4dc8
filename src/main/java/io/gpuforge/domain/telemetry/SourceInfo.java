package io.gpuforge.domain.telemetry;

import java.util.Objects;

/**
 * A source of GPU readings as the user sees it: its kind, where it reads ({@code nvidia-smi over SSH to
 * root@pve1}, {@code guest agent inside VM 104}), and why it was chosen (automatic, or the user's override).
 */
public record SourceInfo(SourceKind kind, String host, String description, boolean chosenByUser) {

    public SourceInfo {
        Objects.requireNonNull(kind);
        Objects.requireNonNull(host);
        Objects.requireNonNull(description);
    }

    public SourceInfo(SourceKind kind, String host, String description) {
        this(kind, host, description, false);
    }

    public SourceInfo overriddenByUser() {
        return new SourceInfo(kind, host, description, true);
    }
}
