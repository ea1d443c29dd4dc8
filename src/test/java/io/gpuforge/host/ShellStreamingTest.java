package io.gpuforge.host;

import io.gpuforge.host.ssh.HostKeyPolicy;
import io.gpuforge.host.ssh.SshShell;
import io.gpuforge.host.ssh.SshTarget;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.testing.HostTrees;
import io.gpuforge.testing.SysrootSshServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A long command's output reaches the caller while the command runs, line by line, on the caller's thread,
 * over SSH and locally. The command here waits for a sign that its first line was seen: a shell that only hands
 * the output over at the end never gives that sign, and the command runs into its limit.
 */
class ShellStreamingTest {

    @TempDir
    Path dir;

    /** Prints a line, waits until the listener has seen it (it creates {@code seen}), then prints more and ends. */
    private static String command(Path seen) {
        String f = RemoteFiles.q(seen.toString());
        return "echo 'I: generating /boot/initrd.img-6.8.12-4-pve'; echo 'W: possible missing firmware' >&2; "
                + "n=0; while [ ! -e " + f + " ] && [ $n -lt 300 ]; do sleep 0.1; n=$((n + 1)); done; "
                + "[ -e " + f + " ] || exit 7; printf 'done\\nno line end'";
    }

    private void streams(HostShell shell) throws Exception {
        Path seen = dir.resolve("seen-" + shell.describe().replaceAll("[^a-z0-9]", "_"));
        Thread caller = Thread.currentThread();
        List<String> got = new ArrayList<>();
        HostShell.Result r = shell.run(command(seen), new byte[0], Duration.ofSeconds(60), (line, stderr) -> {
            assertThat(Thread.currentThread()).as("called on the thread that runs the command").isSameAs(caller);
            got.add((stderr ? "err: " : "out: ") + line);
            if (line.startsWith("I: generating")) {
                try {
                    Files.writeString(seen, "seen");
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        });
        assertThat(r.exitCode()).as("the first line arrived while the command was still running").isZero();
        assertThat(got).contains("out: I: generating /boot/initrd.img-6.8.12-4-pve", "err: W: possible missing firmware",
                "out: done", "out: no line end");
        assertThat(got.indexOf("out: done")).isGreaterThan(got.indexOf("out: I: generating /boot/initrd.img-6.8.12-4-pve"));
        assertThat(new String(r.stdout(), StandardCharsets.UTF_8)).startsWith("I: generating").endsWith("no line end");
    }

    @Test
    void locally() throws Exception {
        try (LocalShell shell = new LocalShell()) {
            streams(shell);
        }
    }

    @Test
    void overSsh() throws Exception {
        Path root = HostTrees.intelGrub(dir.resolve("root"));
        try (SysrootSshServer server = new SysrootSshServer(root, dir.resolve("hk"));
             SshShell shell = SshShell.connect(new SshTarget("root", "127.0.0.1", server.port()),
                     new SshShell.Credentials(Optional.of(SysrootSshServer.PASSWORD.toCharArray()), Optional.empty(),
                             Optional.empty()), dir.resolve("kh"), HostKeyPolicy.acceptNew(), Duration.ofSeconds(20))) {
            streams(shell);
        }
    }
}
