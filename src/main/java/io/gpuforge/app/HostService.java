package io.gpuforge.app;

import io.gpuforge.domain.HostSummary;
import io.gpuforge.host.HostSummaryReader;
import java.nio.file.Path;
import java.util.Optional;

/** Facts about hosts, for the UI and the CLI. Blocking: call from a background task. */
public final class HostService {

    private final Optional<Path> sysroot;

    /** @param sysroot read "This computer" from this tree instead of {@code /} (tests, support snapshots) */
    public HostService(Optional<Path> sysroot) {
        this.sysroot = sysroot;
    }

    public HostSummary thisComputer() {
        return sysroot.map(p -> new HostSummaryReader(p).read()).orElseGet(HostSummaryReader::thisComputer);
    }
}
