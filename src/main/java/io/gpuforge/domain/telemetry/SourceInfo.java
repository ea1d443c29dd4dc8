package io.gpuforge.domain.telemetry;

import java.util.Objects;

/**
 * A source of GPU readings as the user sees it: its kind, the place it reads ({@code root@pve1}, {@code VM 104}, an
 * exporter's URL, the Demo lab's name), that in English words ({@code nvidia-smi stream on root@pve1}, for the
 * command and the log; the window words it from the kind and the place), and why it was chosen (automatic, or the
 * user's override).
 */
public record SourceInfo(SourceKind kind, String host, String where, String description, boolean chosenByUser) {

    public SourceInfo {
        Objects.requireNonNull(kind);
        Objects.requireNonNull(host);
        Objects.requireNonNull(where);
        Objects.requireNonNull(description);
    }

    public SourceInfo(SourceKind kind, String host, String where, String description) {
        this(kind, host, where, description, false);
    }

    public SourceInfo overriddenByUser() {
        return new SourceInfo(kind, host, where, description, true);
    }
}
