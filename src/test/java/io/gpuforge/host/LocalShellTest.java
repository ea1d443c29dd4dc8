package io.gpuforge.host;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Commands on this machine (and the probe of a sysroot, which runs through them) are bounded like SSH ones. */
class LocalShellTest {

    @TempDir
    Path dir;

    @Test
    void aCommandThatWritesWithoutEndCannotFillTheMemory() throws Exception {
        try (LocalShell shell = new LocalShell()) {
            HostShell.Result r = shell.run("head -c 50000000 /dev/zero; echo done >&2", new byte[0], Duration.ofSeconds(60));
            assertThat(r.exitCode()).isZero();
            assertThat(r.stderr()).isEqualTo("done\n");
            assertThat(r.stdout().length).as("stdout is capped as over SSH").isLessThanOrEqualTo(LocalShell.STDOUT_CAP);
        }
    }

    @Test
    void theTimeoutFiresWhileTheCommandIsStillWritingAndStopsEveryProcessItStarted() throws Exception {
        Path pid = dir.resolve("pid");
        // a child that keeps quiet (as a stuck helper of update-initramfs would) while the command floods its output
        String command = "sh -c 'echo $$ > \"$0\"; exec sleep 600' " + RemoteFiles.q(pid.toString())
                + " & while :; do echo flood; done";
        try (LocalShell shell = new LocalShell()) {
            assertThatThrownBy(() -> shell.run(command, new byte[0], Duration.ofSeconds(2)))
                    .isInstanceOf(ProbeException.class).hasMessageContaining("did not finish within 2 s");
        }
        long inner = Long.parseLong(Files.readString(pid).strip());
        Optional<ProcessHandle> h = ProcessHandle.of(inner);
        try {
            if (h.isPresent()) {
                h.get().onExit().get(20, TimeUnit.SECONDS);
            }
        } catch (TimeoutException e) {
            h.get().destroyForcibly();
            throw new AssertionError("the command's child process " + inner + " was left running", e);
        }
    }

    @Test
    void theTimeoutFiresWhenTheCommandDoesNotReadItsInput() {
        byte[] big = "x".repeat(4 * 1024 * 1024).getBytes(StandardCharsets.UTF_8);
        try (LocalShell shell = new LocalShell()) {
            assertThatThrownBy(() -> shell.run("sleep 15; echo late", big, Duration.ofSeconds(1)))
                    .isInstanceOf(ProbeException.class).hasMessageContaining("did not finish within 1 s");
        }
    }
}
