package io.gpuforge.store.secret;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpuforge.testing.Tools;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The keyring through {@code secret-tool}: a real process, here a script on a PATH the test controls.
 * A keyring that hangs (a locked keyring waiting for a prompt nobody sees) or floods must not hang
 * GPUForge: the call fails after its time limit, and the process is stopped.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class SecretServiceKeyringTest {

    @TempDir
    Path dir;

    private Path bin;

    /** Writes {@code bin/secret-tool} running {@code body}; it records its pid in {@code bin/pid}. */
    private Path secretTool(String body) throws IOException {
        bin = Files.createDirectories(dir.resolve("bin"));
        Path tool = bin.resolve("secret-tool");
        Files.writeString(tool, "#!/bin/sh\necho $$ > '" + bin.resolve("pid") + "'\n" + body + "\n");
        Files.setPosixFilePermissions(tool, PosixFilePermissions.fromString("rwx------"));
        return tool;
    }

    private void assertStopped() throws Exception {
        long pid = Long.parseLong(Files.readString(bin.resolve("pid")).strip());
        ProcessHandle.of(pid).ifPresent(p -> p.onExit().orTimeout(10, TimeUnit.SECONDS).join());
        assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive)).as("secret-tool %s still running", pid)
                .isNotEqualTo(Optional.of(true));
    }

    @Test
    void storeLookupAndClearGoThroughTheTool() throws Exception {
        // a keyring kept in a directory: store reads the secret from stdin, lookup prints it without a newline
        Path tool = secretTool("db='" + dir.resolve("db") + "'; mkdir -p \"$db\"; op=$1; shift\n"
                + "[ \"$op\" = store ] && shift 2\n"
                + "key=$(echo \"$*\" | tr ' /' '__')\n"
                + "case $op in store) cat > \"$db/$key\" ;; lookup) [ -f \"$db/$key\" ] && cat \"$db/$key\" || exit 1 ;;"
                + " clear) rm -f \"$db/$key\" ;; search) exit 0 ;; esac");
        SecretServiceKeyring k = new SecretServiceKeyring(tool.toString(), Duration.ofSeconds(30));
        k.put("pve:lab:token", "s3cr3t-ä".toCharArray());
        assertThat(k.get("pve:lab:token")).hasValueSatisfying(v -> assertThat(new String(v)).isEqualTo("s3cr3t-ä"));
        k.delete("pve:lab:token");
        assertThat(k.get("pve:lab:token")).isEmpty();
    }

    @Test
    void aKeyringThatNeverAnswersIsStoppedWhenItsTimeIsUp() throws Exception {
        Path tool = secretTool("printf 'partial'\nwhile :; do sleep 1; done");
        SecretServiceKeyring k = new SecretServiceKeyring(tool.toString(), Duration.ofSeconds(1));
        assertThatThrownBy(() -> k.get("pve:lab:token")).isInstanceOf(SecretStoreException.class)
                .hasMessageContaining("did not answer within 1 s");
        assertStopped();
    }

    @Test
    void aKeyringThatWritesForeverIsStoppedAtTheCap() throws Exception {
        Tools.require("yes", "coreutils");
        Path tool = secretTool("yes s3cr3t");
        SecretServiceKeyring k = new SecretServiceKeyring(tool.toString(), Duration.ofMinutes(5));
        assertThatThrownBy(() -> k.get("pve:lab:token")).isInstanceOf(SecretStoreException.class)
                .hasMessageContaining("more than 64 KiB");
        assertStopped();
    }

    @Test
    void aKeyringThatNeverReadsTheSecretIsStoppedToo() throws Exception {
        Path tool = secretTool("while :; do sleep 1; done");
        SecretServiceKeyring k = new SecretServiceKeyring(tool.toString(), Duration.ofSeconds(1));
        char[] big = new char[1 << 20];
        Arrays.fill(big, 'k');
        assertThatThrownBy(() -> k.put("ssh:key", big)).isInstanceOf(SecretStoreException.class)
                .hasMessageContaining("did not answer within 1 s");
        assertStopped();
    }

    @Test
    void detectingAHangingKeyringGivesUpAndFallsBackToTheVault() throws Exception {
        secretTool("while :; do sleep 1; done");
        Optional<SecretServiceKeyring> k = SecretServiceKeyring.detect(Map.of("DBUS_SESSION_BUS_ADDRESS",
                "unix:path=" + dir.resolve("bus"), "PATH", bin.toString()), Duration.ofSeconds(1));
        assertThat(k).isEmpty();
        assertStopped();
    }
}
