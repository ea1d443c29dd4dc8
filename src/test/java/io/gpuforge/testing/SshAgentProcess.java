package io.gpuforge.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A real OpenSSH {@code ssh-agent} listening on a socket in a temp dir, with keys added by the real {@code ssh-add}
 * (an encrypted key's passphrase is typed in through {@code SSH_ASKPASS}, as a desktop would). Skips without
 * openssh-client, fails under CI=true.
 */
public final class SshAgentProcess implements AutoCloseable {

    private final Path dir;
    private final Path socket;
    private final Process process;

    private SshAgentProcess(Path dir, Path socket, Process process) {
        this.dir = dir;
        this.socket = socket;
        this.process = process;
    }

    public static SshAgentProcess start(Path dir) throws IOException, InterruptedException {
        Tools.require("ssh-agent", "openssh-client");
        Tools.require("ssh-add", "openssh-client");
        Files.createDirectories(dir);
        Path socket = dir.resolve("agent.sock");
        Process p = new ProcessBuilder("ssh-agent", "-D", "-a", socket.toString())
                .redirectErrorStream(true).redirectOutput(dir.resolve("ssh-agent.log").toFile()).start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!Files.exists(socket)) {
            if (!p.isAlive() || System.nanoTime() > deadline) {
                p.destroyForcibly();
                throw new IOException("ssh-agent did not start: " + Files.readString(dir.resolve("ssh-agent.log")));
            }
            Thread.sleep(20);
        }
        return new SshAgentProcess(dir, socket, p);
    }

    /** The agent's socket, for {@code SSH_AUTH_SOCK}. */
    public Path socket() {
        return socket;
    }

    /** {@code ssh-add KEY}, answering its passphrase question with {@code passphrase} (null: none asked). */
    public SshAgentProcess add(Path key, String passphrase) throws IOException, InterruptedException {
        Path askpass = dir.resolve("askpass.sh");
        Files.writeString(askpass, "#!/bin/sh\nprintf '%s\\n' '" + (passphrase == null ? "" : passphrase) + "'\n",
                StandardCharsets.UTF_8);
        Files.setPosixFilePermissions(askpass, PosixFilePermissions.fromString("rwx------"));
        ProcessBuilder pb = new ProcessBuilder("ssh-add", key.toString()).redirectErrorStream(true)
                .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
        Map<String, String> env = pb.environment();
        env.put("SSH_AUTH_SOCK", socket.toString());
        env.put("SSH_ASKPASS", askpass.toString());
        env.put("SSH_ASKPASS_REQUIRE", "force");
        env.put("DISPLAY", ":0");
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
            p.destroyForcibly();
            throw new IOException("ssh-add " + key + " failed: " + out);
        }
        return this;
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
    }
}
