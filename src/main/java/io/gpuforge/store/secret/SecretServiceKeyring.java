package io.gpuforge.store.secret;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
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

    private static final long TIMEOUT_SECONDS = 20;
    private final String tool;

    public SecretServiceKeyring(String tool) {
        this.tool = tool;
    }

    /**
     * Returns the keyring when {@code secret-tool} is installed, a session bus is there and the Secret
     * Service answers; otherwise empty (the caller then uses the vault).
     */
    public static Optional<SecretServiceKeyring> detect(Map<String, String> env) {
        if (env.get("DBUS_SESSION_BUS_ADDRESS") == null) {
            return Optional.empty();
        }
        String path = env.getOrDefault("PATH", "/usr/bin:/bin");
        for (String dir : path.split(java.io.File.pathSeparator)) {
            Path candidate = Path.of(dir.isEmpty() ? "." : dir, "secret-tool");
            if (Files.isExecutable(candidate)) {
                SecretServiceKeyring k = new SecretServiceKeyring(candidate.toString());
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

    private Result run(List<String> args, char[] stdin) throws SecretStoreException {
        List<String> cmd = new ArrayList<>();
        cmd.add(tool);
        cmd.addAll(args);
        Process p;
        try {
            p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        } catch (IOException e) {
            throw new SecretStoreException("Cannot run secret-tool: " + e.getMessage(), e);
        }
        try (OutputStream in = p.getOutputStream()) {
            if (stdin != null) {
                byte[] bytes = new String(stdin).getBytes(StandardCharsets.UTF_8);
                in.write(bytes);
                Arrays.fill(bytes, (byte) 0);
            }
        } catch (IOException e) {
            p.destroyForcibly();
            throw new SecretStoreException("Cannot talk to secret-tool: " + e.getMessage(), e);
        }
        try (InputStream out = p.getInputStream()) {
            byte[] bytes = out.readNBytes(1 << 20);
            if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new SecretStoreException("The keyring did not answer within " + TIMEOUT_SECONDS + " s");
            }
            int exit = p.exitValue();
            // lookup exits 1 for "not found"; store/clear/search failing means the service is unusable
            if (exit != 0 && !"lookup".equals(args.get(0))) {
                throw new SecretStoreException("The keyring refused the request (secret-tool exit " + exit + ")");
            }
            char[] text = StandardCharsets.UTF_8.decode(java.nio.ByteBuffer.wrap(bytes)).array();
            int len = 0;
            for (char ch : text) {
                if (ch == 0) {
                    break;
                }
                len++;
            }
            char[] trimmed = Arrays.copyOf(text, len);
            Arrays.fill(bytes, (byte) 0);
            Arrays.fill(text, '\0');
            return new Result(exit, trimmed);
        } catch (IOException e) {
            throw new SecretStoreException("Cannot read from secret-tool: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            p.destroyForcibly();
            throw new SecretStoreException("Interrupted while waiting for the keyring", e);
        }
    }
}
