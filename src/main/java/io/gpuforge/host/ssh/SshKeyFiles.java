package io.gpuforge.host.ssh;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.function.Function;
import org.apache.sshd.common.NamedResource;
import org.apache.sshd.common.keyprovider.KeyIdentityProvider;
import org.apache.sshd.common.session.SessionContext;
import org.apache.sshd.common.util.security.SecurityUtils;

/**
 * The private key files of a login, read one by one only when sshd gets to them (after the agent's keys), so a
 * passphrase is asked for only when needed. A file that cannot be used (missing, encrypted without a passphrase,
 * wrong passphrase, readable by others as OpenSSH refuses it) is skipped and told to the {@link SshLoginAttempt}, so the other keys and methods still get
 * their turn and the failure can name it.
 */
public final class SshKeyFiles implements KeyIdentityProvider {

    /** The files to try for a session, and whether they were named (a missing named file is worth saying). */
    record Choice(List<Path> files, boolean named) {
    }

    private final Function<SessionContext, Choice> choice;
    private final SshLoginAttempt attempt;

    SshKeyFiles(Function<SessionContext, Choice> choice, SshLoginAttempt attempt) {
        this.choice = choice;
        this.attempt = attempt;
    }

    @Override
    public Iterable<KeyPair> loadKeys(SessionContext session) {
        Choice c = choice.apply(session);
        return () -> new Iterator<>() {
            private final Iterator<Path> files = c.files().iterator();
            private final Deque<KeyPair> ready = new ArrayDeque<>();

            @Override
            public boolean hasNext() {
                while (ready.isEmpty() && files.hasNext()) {
                    load(session, files.next(), c.named(), ready);
                }
                return !ready.isEmpty();
            }

            @Override
            public KeyPair next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                return ready.poll();
            }
        };
    }

    private void load(SessionContext session, Path file, boolean named, Deque<KeyPair> into) {
        if (!Files.exists(file)) {
            if (named) {
                attempt.missing(file);
            }
            return;
        }
        Optional<String> unprotected = KeyFilePermissions.problem(file);
        if (unprotected.isPresent()) {
            attempt.unprotected(file, unprotected.get());
            return;
        }
        try (InputStream in = Files.newInputStream(file)) {
            Iterable<KeyPair> pairs = SecurityUtils.loadKeyPairIdentities(session, NamedResource.ofName(file.toString()),
                    in, attempt);
            if (pairs != null) {
                pairs.forEach(into::add);
            }
            attempt.loaded(file);
        } catch (Exception e) {
            attempt.failed(file, e);
        }
    }
}
