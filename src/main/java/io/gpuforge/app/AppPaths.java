package io.gpuforge.app;

import io.gpuforge.app.host.OsFamily;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Per-user directories, resolved the platform's way.
 *
 * <ul>
 *   <li>Linux: XDG base directories ({@code $XDG_CONFIG_HOME/gpuforge}, {@code $XDG_DATA_HOME/gpuforge},
 *       {@code $XDG_STATE_HOME/gpuforge/logs}) with the spec's defaults under the home directory.</li>
 *   <li>Windows: {@code %APPDATA%\GPUForge} for settings, {@code %LOCALAPPDATA%\GPUForge} for data and logs.</li>
 *   <li>macOS: {@code ~/Library/Application Support/GPUForge}, logs in {@code ~/Library/Logs/GPUForge}.</li>
 * </ul>
 * {@code -Dgpuforge.home=DIR}, else the variable {@code GPUFORGE_HOME=DIR} (the system service's unit sets it), overrides
 * all of them with {@code DIR/config}, {@code DIR/data}, {@code DIR/logs}.
 */
public record AppPaths(Path configDir, Path dataDir, Path logDir) {

    public static final String HOME_PROPERTY = "gpuforge.home";
    /** The environment's form of {@link #HOME_PROPERTY}: an absolute directory. */
    public static final String HOME_VARIABLE = "GPUFORGE_HOME";

    public AppPaths {
        Objects.requireNonNull(configDir);
        Objects.requireNonNull(dataDir);
        Objects.requireNonNull(logDir);
    }

    public static AppPaths underHome(Path home) {
        Path h = home.toAbsolutePath().normalize();
        return new AppPaths(h.resolve("config"), h.resolve("data"), h.resolve("logs"));
    }

    /** Resolves the directories from the running JVM's properties and environment. */
    public static AppPaths resolve() {
        return resolve(OsFamily.current(), System.getenv(), System.getProperty("user.home"),
                System.getProperty(HOME_PROPERTY));
    }

    static AppPaths resolve(OsFamily os, Map<String, String> env, String userHome, String override) {
        if (override != null && !override.isBlank()) {
            return underHome(Path.of(override));
        }
        String fromEnv = env.get(HOME_VARIABLE);
        if (fromEnv != null && !fromEnv.isBlank() && Path.of(fromEnv).isAbsolute()) {
            return underHome(Path.of(fromEnv));
        }
        Path home = Path.of(userHome);
        switch (os) {
            case WINDOWS: {
                Path roaming = envPath(env, "APPDATA", home.resolve("AppData").resolve("Roaming"));
                Path local = envPath(env, "LOCALAPPDATA", home.resolve("AppData").resolve("Local"));
                return new AppPaths(roaming.resolve("GPUForge"), local.resolve("GPUForge"),
                        local.resolve("GPUForge").resolve("logs"));
            }
            case MAC: {
                Path support = home.resolve("Library").resolve("Application Support").resolve("GPUForge");
                return new AppPaths(support, support, home.resolve("Library").resolve("Logs").resolve("GPUForge"));
            }
            default: {
                Path config = envPath(env, "XDG_CONFIG_HOME", home.resolve(".config"));
                Path data = envPath(env, "XDG_DATA_HOME", home.resolve(".local").resolve("share"));
                Path state = envPath(env, "XDG_STATE_HOME", home.resolve(".local").resolve("state"));
                return new AppPaths(config.resolve("gpuforge"), data.resolve("gpuforge"),
                        state.resolve("gpuforge").resolve("logs"));
            }
        }
    }

    /** XDG: a relative or empty value is invalid and must be ignored. */
    private static Path envPath(Map<String, String> env, String name, Path fallback) {
        String v = env.get(name);
        if (v == null || v.isBlank()) {
            return fallback;
        }
        Path p = Path.of(v);
        return p.isAbsolute() ? p : fallback;
    }

    public Path settingsFile() {
        return configDir.resolve("settings.json");
    }

    public Path databaseFile() {
        return dataDir.resolve("gpuforge.db");
    }

    public Path vaultFile() {
        return dataDir.resolve("secrets.vault");
    }

    /**
     * Creates the directories, and makes them and everything in them readable by the user only
     * ({@link FilePrivacy#tighten}): what an earlier version or another umask left open is closed at every start.
     */
    public void createAll() throws IOException {
        Files.createDirectories(configDir);
        Files.createDirectories(dataDir);
        Files.createDirectories(logDir);
        for (Path own : ownDirs()) {
            FilePrivacy.tighten(own);
        }
    }

    /**
     * GPUForge's own directories: settings, data and logs, and on Linux the {@code gpuforge} directory of the XDG
     * state home that holds the logs.
     */
    public List<Path> ownDirs() {
        Set<Path> out = new LinkedHashSet<>(List.of(configDir, dataDir));
        Path parent = logDir.getParent();
        out.add(parent != null && parent.getFileName() != null
                && parent.getFileName().toString().equalsIgnoreCase("gpuforge") ? parent : logDir);
        return List.copyOf(out);
    }
}
