package io.gpuforge.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.sshd.server.Environment;
import org.apache.sshd.server.ExitCallback;
import org.apache.sshd.server.SshServer;
import org.apache.sshd.server.channel.ChannelSession;
import org.apache.sshd.server.command.Command;
import org.apache.sshd.server.keyprovider.SimpleGeneratorHostKeyProvider;

/**
 * A real SSH server (sshd-core) on 127.0.0.1 whose exec channels run {@code /bin/sh -c} with
 * {@code GPUFORGE_ROOT} pointing at a sysroot: the probe reads that tree as if it were the host.
 * Password "secret" for any user; counts exec channels so tests can see "one round trip".
 */
public final class SysrootSshServer implements AutoCloseable {

    public static final String PASSWORD = "secret";
    private final SshServer server;
    private final AtomicInteger execs = new AtomicInteger();

    public SysrootSshServer(Path sysroot, Path hostKey) throws IOException {
        this(sysroot, hostKey, null);
    }

    /** Also accepts public-key login with {@code userKey} (when not null). */
    public SysrootSshServer(Path sysroot, Path hostKey, java.security.PublicKey userKey) throws IOException {
        server = SshServer.setUpDefaultServer();
        server.setHost("127.0.0.1");
        server.setPort(0);
        server.setKeyPairProvider(new SimpleGeneratorHostKeyProvider(hostKey));
        server.setPasswordAuthenticator((user, password, session) -> PASSWORD.equals(password));
        if (userKey != null) {
            server.setPublickeyAuthenticator((user, key, session) ->
                    org.apache.sshd.common.config.keys.KeyUtils.compareKeys(key, userKey));
        }
        server.setCommandFactory((channel, command) -> {
            execs.incrementAndGet();
            return new ShellCommand(command, sysroot);
        });
        server.start();
    }

    public int port() {
        return server.getPort();
    }

    public int execChannels() {
        return execs.get();
    }

    @Override
    public void close() throws IOException {
        server.stop(true);
    }

    private static final class ShellCommand implements Command {
        private final String command;
        private final Path sysroot;
        private InputStream in;
        private OutputStream out;
        private OutputStream err;
        private ExitCallback exit;
        private Process process;

        ShellCommand(String command, Path sysroot) {
            this.command = command;
            this.sysroot = sysroot;
        }

        @Override
        public void setInputStream(InputStream in) {
            this.in = in;
        }

        @Override
        public void setOutputStream(OutputStream out) {
            this.out = out;
        }

        @Override
        public void setErrorStream(OutputStream err) {
            this.err = err;
        }

        @Override
        public void setExitCallback(ExitCallback callback) {
            this.exit = callback;
        }

        @Override
        public void start(ChannelSession channel, Environment env) throws IOException {
            ProcessBuilder pb = new ProcessBuilder("/bin/sh", "-c", command);
            Map<String, String> e = pb.environment();
            e.put("GPUFORGE_ROOT", sysroot.toAbsolutePath().toString());
            process = pb.start();
            Thread pumpIn = new Thread(() -> {
                try (OutputStream p = process.getOutputStream()) {
                    in.transferTo(p);
                } catch (IOException ignored) {
                    // the command ended before reading all input
                }
            }, "ssh-test-stdin");
            pumpIn.setDaemon(true);
            pumpIn.start();
            Thread waiter = new Thread(() -> {
                try {
                    Thread errPump = new Thread(() -> copy(process.getErrorStream(), err));
                    errPump.start();
                    copy(process.getInputStream(), out);
                    errPump.join();
                    exit.onExit(process.waitFor());
                } catch (InterruptedException ex) {
                    Thread.currentThread().interrupt();
                }
            }, "ssh-test-command");
            waiter.setDaemon(true);
            waiter.start();
        }

        private static void copy(InputStream from, OutputStream to) {
            try (from) {
                byte[] buf = new byte[8192];
                int n;
                while ((n = from.read(buf)) > 0) {
                    to.write(buf, 0, n);
                    to.flush();
                }
            } catch (IOException ignored) {
                // channel closed
            }
        }

        @Override
        public void destroy(ChannelSession channel) {
            if (process != null) {
                process.destroyForcibly();
            }
        }
    }
}
