package io.gpuforge.host;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Optional;
import org.apache.sshd.client.SshClient;
import org.apache.sshd.client.channel.ChannelExec;
import org.apache.sshd.client.channel.ClientChannelEvent;
import org.apache.sshd.client.session.ClientSession;
import org.apache.sshd.common.config.keys.FilePasswordProvider;
import org.apache.sshd.common.keyprovider.FileKeyPairProvider;

/**
 * A host over SSH (Apache MINA sshd): one session, one exec channel per command. Host keys are checked
 * against an OpenSSH known_hosts file; password or private-key authentication (encrypted keys with their
 * passphrase).
 */
public final class SshShell implements HostShell {

    /** How to log in. Empty password and key mean "try the default keys in ~/.ssh". */
    public record Credentials(Optional<char[]> password, Optional<Path> identity, Optional<char[]> keyPassphrase) {
        public static Credentials none() {
            return new Credentials(Optional.empty(), Optional.empty(), Optional.empty());
        }
    }

    private final SshTarget target;
    private final SshClient client;
    private final ClientSession session;

    private SshShell(SshTarget target, SshClient client, ClientSession session) {
        this.target = target;
        this.client = client;
        this.session = session;
    }

    public static SshShell connect(SshTarget target, Credentials credentials, Path knownHosts, HostKeyPolicy policy,
                                   Duration timeout) throws ProbeException {
        SshClient client = SshClient.setUpDefaultClient();
        KnownHostsVerifier verifier = new KnownHostsVerifier(knownHosts, target.host(), policy);
        client.setServerKeyVerifier(verifier);
        client.setKeyIdentityProvider(session -> defaultKeys(credentials));
        client.start();
        ClientSession session = null;
        try {
            session = client.connect(target.user(), target.host(), target.port()).verify(timeout).getSession();
            if (credentials.password().isPresent()) {
                session.addPasswordIdentity(new String(credentials.password().get()));
            }
            session.auth().verify(timeout);
            return new SshShell(target, client, session);
        } catch (IOException | RuntimeException e) {
            closeQuietly(session, client);
            KnownHostsVerifier.Refusal r = verifier.refusal();
            if (r != null && r.changed()) {
                throw new ProbeException("The host key of " + target.host() + " has CHANGED: known_hosts has "
                        + r.expectedFingerprint() + ", the server now offers " + r.actualFingerprint()
                        + ". This can be a reinstalled host or someone in between; GPUForge refuses to connect."
                        + " If the change is expected, remove the old key from " + knownHosts + ".", e);
            }
            if (r != null) {
                throw new ProbeException("The host key of " + target.host() + " is not known (" + r.actualFingerprint()
                        + "). Check the fingerprint on the host (ssh-keygen -lf /etc/ssh/ssh_host_*_key.pub) and"
                        + " accept it to continue (--accept-new-host-key on the command line).", e);
            }
            throw new ProbeException("SSH to " + target + " failed: " + describe(e), e);
        }
    }

    private static Iterable<KeyPair> defaultKeys(Credentials c) throws IOException, GeneralSecurityException {
        FileKeyPairProvider keys;
        if (c.identity().isPresent()) {
            keys = new FileKeyPairProvider(c.identity().get());
        } else {
            Path ssh = Path.of(System.getProperty("user.home"), ".ssh");
            keys = new FileKeyPairProvider(java.util.stream.Stream.of("id_ed25519", "id_ecdsa", "id_rsa")
                    .map(ssh::resolve).filter(java.nio.file.Files::isReadable).toList());
        }
        c.keyPassphrase().ifPresent(p -> keys.setPasswordFinder(FilePasswordProvider.of(new String(p))));
        return keys.loadKeys(null);
    }

    private static String describe(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        String m = t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
        if (m.contains("No more authentication methods")) {
            return "authentication refused (wrong password or key)";
        }
        return m;
    }

    @Override
    public String describe() {
        return "ssh:" + target;
    }

    public String user() {
        return target.user();
    }

    @Override
    public Result run(String command, byte[] stdin, Duration timeout) throws ProbeException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        try (ChannelExec ch = session.createExecChannel(command)) {
            ch.setIn(new ByteArrayInputStream(stdin == null ? new byte[0] : stdin));
            ch.setOut(new Capped(out, ProbeStream.MAX_BYTES + 1));
            ch.setErr(new Capped(err, LocalShell.STDERR_CAP));
            ch.open().verify(timeout);
            var events = ch.waitFor(EnumSet.of(ClientChannelEvent.CLOSED, ClientChannelEvent.EXIT_STATUS),
                    timeout.toMillis());
            if (events.contains(ClientChannelEvent.TIMEOUT)) {
                throw new ProbeException("'" + command + "' on " + target + " did not finish within "
                        + timeout.toSeconds() + " s");
            }
            ch.waitFor(EnumSet.of(ClientChannelEvent.CLOSED), 2000);
            Integer exit = ch.getExitStatus();
            return new Result(exit == null ? -1 : exit, out.toByteArray(), err.toString(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new ProbeException("Running '" + command + "' on " + target + " failed: " + describe(e), e);
        }
    }

    private static void closeQuietly(ClientSession s, SshClient c) {
        try {
            if (s != null) {
                s.close();
            }
        } catch (IOException e) {
            // closing after a failure
        }
        c.stop();
    }

    @Override
    public void close() {
        closeQuietly(session, client);
    }

    /** Keeps at most {@code cap} bytes and drops the rest, so a runaway command cannot fill the memory. */
    private static final class Capped extends java.io.OutputStream {
        private final ByteArrayOutputStream target;
        private final int cap;

        Capped(ByteArrayOutputStream target, int cap) {
            this.target = target;
            this.cap = cap;
        }

        @Override
        public void write(int b) {
            if (target.size() < cap) {
                target.write(b);
            }
        }

        @Override
        public void write(byte[] b, int off, int len) {
            int room = cap - target.size();
            if (room > 0) {
                target.write(b, off, Math.min(len, room));
            }
        }
    }
}
