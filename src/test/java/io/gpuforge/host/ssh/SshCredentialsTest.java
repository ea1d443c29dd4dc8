package io.gpuforge.host.ssh;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Credentials end up in log lines and exception texts: their text says what is given, never a secret. */
class SshCredentialsTest {

    @Test
    void theTextOfCredentialsHoldsNoSecret() {
        SshShell.Credentials c = new SshShell.Credentials(Optional.of("hunter2".toCharArray()),
                Optional.of(Path.of("/home/ana/.ssh/id_ed25519")), Optional.of("correct horse".toCharArray()));
        assertThat(c.toString()).doesNotContain("hunter2").doesNotContain("correct horse")
                .as("not even the arrays' identities").doesNotContain("[C@")
                .isEqualTo("Credentials[password=(given), identity=/home/ana/.ssh/id_ed25519, keyPassphrase=(given)]");
        assertThat(SshShell.Credentials.none().toString())
                .isEqualTo("Credentials[password=(none), identity=(default keys), keyPassphrase=(none)]");
    }
}
