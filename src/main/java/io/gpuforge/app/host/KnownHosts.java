package io.gpuforge.app.host;

import io.gpuforge.app.AppPaths;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gpuforge.app.settings.KnownHostsFile;
import io.gpuforge.app.settings.Settings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where SSH host keys are checked and remembered: one policy for the window and the command line. Both read the
 * user's OpenSSH {@code ~/.ssh/known_hosts} and GPUForge's own file, so a host trusted in one is trusted in the
 * other (and by {@code ssh}); a newly accepted key is written to the one the user chose ({@link KnownHostsFile}, OpenSSH's
 * by default). A changed key is refused whichever file holds the old one.
 *
 * @param read  every file checked, in order
 * @param write where new keys go (one of {@code read})
 */
public record KnownHosts(List<Path> read, Path write) {

    private static final Logger LOG = LoggerFactory.getLogger(KnownHosts.class);

    public KnownHosts {
        Objects.requireNonNull(write);
        List<Path> all = new ArrayList<>(read);
        if (!all.contains(write)) {
            all.add(write);
        }
        read = List.copyOf(all);
    }

    /** Just one file, read and written (the command line's {@code --known-hosts FILE}). */
    public KnownHosts(Path file) {
        this(List.of(file), file);
    }

    /**
     * The policy over OpenSSH's file ({@code openSsh}, when the user has one: absent in tests) and GPUForge's own
     * ({@code own}), writing where {@code choice} says; GPUForge's own when there is no OpenSSH file to write.
     */
    public static KnownHosts of(Optional<Path> openSsh, Path own, KnownHostsFile choice) {
        List<Path> read = new ArrayList<>();
        openSsh.ifPresent(read::add);
        read.add(own);
        Path write = choice == KnownHostsFile.GPUFORGE || openSsh.isEmpty() ? own : openSsh.get();
        return new KnownHosts(read, write);
    }

    /**
     * The command line's policy, the same the window uses: {@code ~/.ssh/known_hosts} of the user running it and
     * GPUForge's own file (in its configuration directory {@code config}, {@code AppPaths#configDir}), writing where
     * the user's settings say.
     */
    public static KnownHosts openSsh(Path config) {
        return of(Optional.of(Path.of(System.getProperty("user.home"), ".ssh", "known_hosts")),
                config.resolve("known_hosts"), choice(config.resolve("settings.json")));
    }

    /** Where the settings file says new keys go (OpenSSH's file when it says nothing or cannot be read). */
    static KnownHostsFile choice(Path settingsFile) {
        if (!Files.isRegularFile(settingsFile)) {
            return KnownHostsFile.OPENSSH;
        }
        try {
            return new ObjectMapper().readValue(settingsFile.toFile(), Settings.class).newHostKeys();
        } catch (IOException | RuntimeException e) {
            LOG.warn("The settings in {} could not be read ({}); new host keys go to ~/.ssh/known_hosts", settingsFile,
                    e.toString());
            return KnownHostsFile.OPENSSH;
        }
    }

    /** Where new keys go. */
    public Path file() {
        return write;
    }
}
