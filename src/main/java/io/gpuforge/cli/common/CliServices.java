package io.gpuforge.cli.common;

import io.gpuforge.app.AppPaths;
import io.gpuforge.app.AppContext;
import io.gpuforge.app.host.KnownHosts;
import io.gpuforge.app.StandaloneServices;
import io.gpuforge.domain.connections.ConnectionInfo;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Map;
import java.util.Optional;
import java.nio.charset.StandardCharsets;

/** What the commands need: paths, output, and the services shared with the GUI. */
public final class CliServices {

    private final AppPaths paths;
    private final CliOutput output;
    private final InputStream stdin;
    private final Map<String, String> environment;
    private StandaloneServices standalone;
    private AppContext context;

    public CliServices(AppPaths paths, CliOutput output, InputStream stdin) {
        this(paths, output, stdin, System.getenv());
    }

    /** @param environment the variables the command reads ({@code GPUFORGE_PVE_TOKEN}, {@code GPUFORGE_VAULT_PASSPHRASE}) */
    public CliServices(AppPaths paths, CliOutput output, InputStream stdin, Map<String, String> environment) {
        this.paths = paths;
        this.output = output;
        this.stdin = stdin;
        this.environment = Map.copyOf(environment);
    }

    /** An environment variable the command reads; empty when it is not set. */
    public Optional<String> env(String name) {
        return Optional.ofNullable(environment.get(name)).filter(v -> !v.isEmpty());
    }

    /** Every variable the command was given. */
    public Map<String, String> environment() {
        return environment;
    }

    public AppPaths paths() {
        return paths;
    }

    public CliOutput output() {
        return output;
    }

    /** Standard input (passwords, listings from a pipe). */
    public InputStream stdin() {
        return stdin;
    }

    /** Asks {@code question [y/N]} on stdout and reads the answer: yes only for "y" (end of input or an error: no). */
    public boolean confirm(String question) {
        output().out().print(question + " [y/N] ");
        output().out().flush();
        try {
            String answer = readLine();
            return answer != null && answer.strip().equalsIgnoreCase("y");
        } catch (IOException e) {
            return false;
        }
    }

    /** The longest line {@link #readLine} takes (a password, a key, a token: far less). */
    public static final int MAX_LINE_BYTES = 64 * 1024;

    /**
     * One line of standard input, read byte by byte so nothing after it is swallowed by a buffer
     * (a password line may be followed by a confirmation). Null at end of input; a line longer than
     * {@value #MAX_LINE_BYTES} bytes is refused.
     */
    public String readLine() throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        int b;
        while ((b = stdin.read()) >= 0 && b != '\n') {
            if (b != '\r') {
                line.write(b);
            }
            if (line.size() > MAX_LINE_BYTES) {
                throw new IOException("a line of standard input is longer than " + MAX_LINE_BYTES + " bytes");
            }
        }
        return b < 0 && line.size() == 0 ? null : line.toString(StandardCharsets.UTF_8);
    }

    /** The host and hypervisor services for what the command names on the spot; made on first use. */
    public StandaloneServices standalone() {
        if (standalone == null) {
            standalone = new StandaloneServices(KnownHosts.openSsh(AppPaths.resolve().configDir()));
        }
        return standalone;
    }

    /**
     * The application context (saved connections, the secret store, the window's known host keys), opened once for
     * the run on first use and closed with it: for what a command names by its saved name ({@code --host NAME}).
     */
    AppContext context() throws IOException {
        if (context == null) {
            context = openContext();
        }
        return context;
    }

    /**
     * A new application context over GPUForge's data, its vault unlocked from {@code GPUFORGE_VAULT_PASSPHRASE}
     * when that is set; the caller closes it.
     */
    public AppContext openContext() throws IOException {
        try {
            AppContext ctx = AppContext.create(paths(), AppContext.Options.cli(),
                    (t, e) -> output().error("gpuforge: " + e));
            try {
                CliVault.unlockFromEnvironment(ctx, this);
            } catch (Exception e) {
                ctx.close();
                throw new IOException("GPUForge's vault could not be unlocked with " + CliVault.PASSPHRASE_VARIABLE
                        + ": " + e.getMessage(), e);
            }
            return ctx;
        } catch (Exception e) {
            throw new IOException("cannot open GPUForge's data in " + paths().dataDir() + ": " + e.getMessage(), e);
        }
    }

    /** The saved connection called {@code name}; an error naming it when there is none. */
    public static ConnectionInfo savedConnection(AppContext ctx, String name) throws Exception {
        return ctx.connections().all().stream().filter(c -> c.name().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no saved connection named '" + name + "'"));
    }

    /** Releases what the commands opened (hypervisor sessions, the context). */
    public void close() {
        if (standalone != null) {
            standalone.close();
        }
        if (context != null) {
            context.close();
        }
    }
}
