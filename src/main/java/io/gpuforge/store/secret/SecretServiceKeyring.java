package io.gpuforge.store.secret;

import io.gpuforge.bounded.ChildEnvironment;
import io.gpuforge.bounded.BoundedProcess;
import java.io.IOException;
import java.io.InputStream;
import java.io.File;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The Linux desktop keyring (GNOME Keyring, KWallet with the Secret Service bridge, KeePassXC…) through
 * libsecret's {@code secret-tool}. Secrets travel over the tool's stdin/stdout, never on its command line.
 * Each entry carries the attributes {@code application=gpuforge} and {@code key=<name>}.
 */
public final class SecretServiceKeyring implements SecretStore {

    private static final Duration TIMEOUT = Duration.ofSeconds(20);
    /** More than any secret: a token, a password or a key's passphrase. */
    static final int MAX_OUTPUT = 64 * 1024;
    private final String tool;
    private final Duration timeout;

    public SecretServiceKeyring(String tool) {
        this(tool, TIMEOUT);
    }

    /** @param timeout how long one secret-tool call may take */
    public SecretServiceKeyring(String tool, Duration timeout) {
        this.tool = tool;
        this.timeout = timeout;
    }

    /**
     * Returns the keyring when {@code secret-tool} is installed, a session bus is there and the Secret
     * Service answers; otherwise empty (the caller then uses the vault).
     */
    public static Optional<SecretServiceKeyring> detect(Map<String, String> env) {
        return detect(env, TIMEOUT);
    }

    static Optional<SecretServiceKeyring> detect(Map<String, String> env, Duration timeout) {
        if (env.get("DBUS_SESSION_BUS_ADDRESS") == null) {
            return Optional.empty();
        }
        String path = env.getOrDefault("PATH", "/usr/bin:/bin");
        for (String dir : path.split(File.pathSeparator)) {
            Path candidate = Path.of(dir.isEmpty() ? "." : dir, "secret-tool");
            if (Files.isExecutable(candidate)) {
                SecretServiceKeyring k = new SecretServiceKeyring(candidate.toString(), timeout);
                try {
                    k.run(List.of("search", "application", "gpuforge", "key", "gpuforge.probe"), null);
                    return Optional.of(k);
                } catch (SecretStoreException e) {
                    return Optional.empty();
                }
            }
        }
        return Optional.empty();
    }

    @Override
    public String backendName() {
        return "Secret Service";
    }

    @Override
    public boolean isUnlocked() {
        return true;
    }

    @Override
    public void put(String key, char[] secret) throws SecretStoreException {
        run(List.of("store", "--label", "GPUForge: " + key, "application", "gpuforge", "key", key), secret);
    }

    @Override
    public Optional<char[]> get(String key) throws SecretStoreException {
        Result r = run(List.of("lookup", "application", "gpuforge", "key", key), null);
        return r.exit == 0 && r.stdout.length > 0 ? Optional.of(r.stdout) : Optional.empty();
    }

    @Override
    public void delete(String key) throws SecretStoreException {
        run(List.of("clear", "application", "gpuforge", "key", key), null);
    }

    private static final class Result {
        final int exit;
        final char[] stdout;

        Result(int exit, char[] stdout) {
            this.exit = exit;
            this.stdout = stdout;
        }
    }

    /**
     * Runs secret-tool with {@code stdin} (or nothing) as its input. Input and output go through threads
     * of their own, so the time limit fires even while the tool writes or refuses to read; a tool past
     * the limit, or printing more than a secret can be, is stopped with every process it started.
     */
    private Result run(List<String> args, char[] stdin) throws SecretStoreException {
        List<String> cmd = new ArrayList<>();
        cmd.add(tool);
        cmd.addAll(args);
        Process p;
        try {
            p = ChildEnvironment.scrubbed(new ProcessBuilder(cmd)).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        } catch (IOException e) {
            throw new SecretStoreException("Cannot run secret-tool: " + e.getMessage(), e);
        }
        byte[] input = stdin == null ? new byte[0] : toUtf8(stdin);
        Thread writer = new Thread(() -> feed(p, input), "secret-tool-in");
        writer.setDaemon(true);
        writer.start();
        Output out = new Output();
        Thread reader = new Thread(() -> out.drain(p), "secret-tool-out");
        reader.setDaemon(true);
        reader.start();
        try {
            if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                BoundedProcess.kill(p);
                throw new SecretStoreException("The keyring did not answer within " + timeout.toSeconds()
                        + " s (secret-tool was stopped); unlock it or use the vault");
            }
            reader.join(TimeUnit.SECONDS.toMillis(5));
            if (out.tooMuch) {
                throw new SecretStoreException("secret-tool printed more than " + MAX_OUTPUT / 1024
                        + " KiB, more than a secret; it was stopped");
            }
            int exit = p.exitValue();
            // lookup exits 1 for "not found"; store/clear/search failing means the service is unusable
            if (exit != 0 && !"lookup".equals(args.get(0))) {
                throw new SecretStoreException("The keyring refused the request (secret-tool exit " + exit + ")");
            }
            return new Result(exit, out.chars());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            BoundedProcess.kill(p);
            throw new SecretStoreException("Interrupted while waiting for the keyring", e);
        } finally {
            Arrays.fill(input, (byte) 0);
            out.wipe();
        }
    }

    private static byte[] toUtf8(char[] chars) {
        ByteBuffer b = StandardCharsets.UTF_8.encode(CharBuffer.wrap(chars));
        byte[] bytes = new byte[b.remaining()];
        b.get(bytes);
        Arrays.fill(b.array(), (byte) 0);
        return bytes;
    }

    private static void feed(Process p, byte[] input) {
        try (OutputStream in = p.getOutputStream()) {
            in.write(input);
        } catch (IOException e) {
            // the tool went away or does not read: its exit (or the time limit) says what happened
        }
    }

    /** What the tool printed, at most {@link #MAX_OUTPUT} bytes. */
    private static final class Output {
        private final byte[] buf = new byte[MAX_OUTPUT];
        private int len;
        private volatile boolean tooMuch;

        void drain(Process p) {
            try (InputStream in = p.getInputStream()) {
                int n;
                while ((n = in.read(buf, len, buf.length - len)) > 0) {
                    synchronized (this) {
                        len += n;
                    }
                    if (len == buf.length && in.read() >= 0) {
                        tooMuch = true;
                        BoundedProcess.kill(p);
                        return;
                    }
                }
            } catch (IOException e) {
                // the tool went away; what was read is kept
            }
        }

        /** The output as text, up to a NUL. */
        synchronized char[] chars() {
            CharBuffer text = StandardCharsets.UTF_8.decode(ByteBuffer.wrap(buf, 0, len));
            int end = 0;
            while (end < text.limit() && text.get(end) != 0) {
                end++;
            }
            char[] out = new char[end];
            text.get(out, 0, end);
            Arrays.fill(text.array(), '\0');
            return out;
        }

        synchronized void wipe() {
            Arrays.fill(buf, (byte) 0);
        }
    }
}
