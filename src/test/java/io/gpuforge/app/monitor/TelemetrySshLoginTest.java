package io.gpuforge.app.monitor;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.app.host.SshLogin;
import io.gpuforge.domain.telemetry.GpuTarget;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** {@code gpu list|watch --ssh} logs in as the host commands do: its SSH config and agent choice reach the login. */
class TelemetrySshLoginTest {

    @Test
    void theSshConfigAndTheAgentChoiceOfAGpuTargetReachTheLogin() {
        SshLogin l = TelemetrySources.login(new GpuTarget.Ssh("root@gpu1", Optional.of(Path.of("/keys/id")),
                Optional.empty(), Optional.of(Path.of("/kh")), true, Optional.of(Path.of("/dev/null")), false));
        assertThat(l.destination()).isEqualTo("root@gpu1");
        assertThat(l.identity()).contains(Path.of("/keys/id"));
        assertThat(l.knownHosts()).contains(Path.of("/kh"));
        assertThat(l.acceptNewHostKey()).isTrue();
        assertThat(l.sshConfig()).contains(Path.of("/dev/null"));
        assertThat(l.agent()).isFalse();

        SshLogin plain = TelemetrySources.login(new GpuTarget.Ssh("gpu2", Optional.empty(), Optional.empty(),
                Optional.empty(), false));
        assertThat(plain.sshConfig()).isEmpty();
        assertThat(plain.agent()).as("the user's agent, as ssh does").isTrue();
    }
}
