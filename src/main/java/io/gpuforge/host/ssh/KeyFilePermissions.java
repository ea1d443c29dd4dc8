package io.gpuforge.host.ssh;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Optional;
import java.util.Set;

/**
 * OpenSSH's rule for private key files: a key of one's own that group or others can read or write is not used
 * ("UNPROTECTED PRIVATE KEY FILE"), whichever way it was named ({@code --identity}, the config's
 * {@code IdentityFile}, the window's key field, the default keys). A key owned by someone else (root's key read by
 * root, a key handed out read-only) is left to the file system, as OpenSSH does.
 */
public final class KeyFilePermissions {

    private KeyFilePermissions() {
    }

    /** Why {@code key} must not be used, in words with the fix; empty when it is fine (or cannot be told). */
    public static Optional<String> problem(Path key) {
        try {
            if (!Files.isRegularFile(key) || !mine(key)) {
                return Optional.empty();
            }
            Set<PosixFilePermission> perms = Files.getPosixFilePermissions(key);
            int mode = mode(perms);
            if ((mode & 0077) == 0) {
                return Optional.empty();
            }
            return Optional.of(String.format("the key file %s is accessible by others (permissions %04o): like OpenSSH"
                    + " (\"UNPROTECTED PRIVATE KEY FILE\"), GPUForge does not use a private key that is not the"
                    + " user's alone; make it so with chmod 600 %s", key, mode, key));
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    /**
     * Whether the file belongs to the user running GPUForge: the owner of this process's {@code /proc/<pid>}
     * directory, its effective uid (the {@code /proc/self} link itself is root's for every process, so it is
     * followed).
     */
    private static boolean mine(Path key) throws IOException {
        try {
            Object self = Files.getAttribute(Path.of("/proc/self/"), "unix:uid");
            return self.equals(Files.getAttribute(key, "unix:uid"));
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            return Files.getOwner(key).getName().equals(System.getProperty("user.name"));
        }
    }

    private static int mode(Set<PosixFilePermission> perms) {
        int mode = 0;
        for (PosixFilePermission p : perms) {
            mode |= 1 << (8 - p.ordinal());
        }
        return mode;
    }
}
