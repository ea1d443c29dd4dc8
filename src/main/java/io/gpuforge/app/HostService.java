package io.gpuforge.app;

import io.gpuforge.domain.ConnectionInfo;
import io.gpuforge.domain.HostFacts;
import io.gpuforge.domain.HostSummary;
import io.gpuforge.host.HostProbe;
import io.gpuforge.host.HostSummaryReader;
import io.gpuforge.host.ProbeException;
import io.gpuforge.host.SshShell;
import io.gpuforge.host.SshTarget;
import io.gpuforge.store.secret.SecretStoreException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/** Facts about hosts, for the UI and the CLI. Blocking: call from a background task. */
public final class HostService {

    private final Optional<Path> sysroot;
    private final Path knownHosts;
    private final SecretsService secrets;

    /**
     * @param sysroot read "This computer" from this tree instead of {@code /} (tests, support snapshots)
     * @param knownHosts and {@code secrets} may be null for a service that only reads the local computer (CLI)
     */
    public HostService(Optional<Path> sysroot, Path knownHosts, SecretsService secrets) {
        this.sysroot = sysroot;
        this.knownHosts = knownHosts;
        this.secrets = secrets;
    }

    public HostSummary thisComputer() {
        return sysroot.map(p -> new HostSummaryReader(p).read()).orElseGet(HostSummaryReader::thisComputer);
    }

    /** Everything passthrough needs about this computer (Linux; elsewhere an error that says so). */
    public HostFacts probeThisComputer() throws ProbeException {
        if (sysroot.isEmpty() && OsFamily.current() != OsFamily.LINUX) {
            throw new ProbeException("IOMMU groups can be read on Linux hosts only; this computer runs "
                    + System.getProperty("os.name"));
        }
        return new HostProbe().probeLocal(sysroot);
    }

    /** Probes a saved SSH host; unknown host keys go to {@code prompt}, changed ones are refused. */
    public HostFacts probe(ConnectionInfo c, HostKeyPrompt prompt) throws ProbeException {
        if (secrets == null || knownHosts == null) {
            throw new ProbeException("this HostService reads the local computer only");
        }
        if (c.kind() != ConnectionInfo.Kind.SSH) {
            throw new ProbeException(c.kind() + " connections are not available in this build yet");
        }
        SshTarget target = SshTarget.parse(c.username() + "@" + c.address(), c.username());
        Optional<char[]> password = Optional.empty();
        if (c.secretRef().isPresent()) {
            try {
                password = secrets.store().get(c.secretRef().get());
            } catch (SecretStoreException e) {
                throw new ProbeException("The password of " + c.name() + " is in the secret store, which says: "
                        + e.getMessage(), e);
            }
        }
        try (SshShell shell = SshShell.connect(target, new SshShell.Credentials(password, Optional.empty(),
                Optional.empty()), knownHosts, prompt::trust, Duration.ofSeconds(20))) {
            return new HostProbe().probe(shell, !"root".equals(target.user()));
        }
    }
}
