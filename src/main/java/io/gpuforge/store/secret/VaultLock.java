package io.gpuforge.store.secret;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Sole use of a vault file for one read-change-write, against other processes (a second window, a CLI
 * command) and other threads and instances of this one. Held as an OS lock on a sidecar file next to the
 * vault ({@code <vault>.lock}, never deleted: deleting a lock file lets two processes lock two different
 * files); the vault itself is replaced by rename on every write, so it cannot carry the lock.
 *
 * <p>The in-process part is a table keyed by lock file, the one static state here, and on purpose: POSIX
 * record locks belong to the whole process, and closing any descriptor of the file drops every lock the
 * process holds on it. A second {@link FileChannel} on the lock file opened and closed in this JVM while the
 * first holds the lock would silently hand the vault to another process; the table makes the second wait
 * before it opens anything.
 */
final class VaultLock implements AutoCloseable {

    private static final ConcurrentMap<Path, ReentrantLock> IN_PROCESS = new ConcurrentHashMap<>();
    private static final long RETRY_MILLIS = 10;

    private final ReentrantLock local;
    private final FileChannel channel;
    private final FileLock lock;

    private VaultLock(ReentrantLock local, FileChannel channel, FileLock lock) {
        this.local = local;
        this.channel = channel;
        this.lock = lock;
    }

    /** Waits up to {@code wait} for the vault, then says who may hold it. */
    static VaultLock acquire(Path lockFile, Duration wait) throws SecretStoreException {
        Path key;
        try {
            Path dir = lockFile.toAbsolutePath().getParent();
            Files.createDirectories(dir);
            key = dir.toRealPath().resolve(lockFile.getFileName());
        } catch (IOException e) {
            throw new SecretStoreException("Cannot use the folder of the vault lock " + lockFile + ": " + e.getMessage(), e);
        }
        long deadline = System.nanoTime() + wait.toNanos();
        ReentrantLock local = IN_PROCESS.computeIfAbsent(key, k -> new ReentrantLock());
        try {
            if (!local.tryLock(wait.toNanos(), TimeUnit.NANOSECONDS)) {
                throw busy(lockFile, wait);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SecretStoreException("Interrupted while waiting for the vault", e);
        }
        FileChannel channel = null;
        try {
            channel = open(key);
            while (true) {
                FileLock l;
                try {
                    l = channel.tryLock();
                } catch (OverlappingFileLockException e) {
                    l = null;
                }
                if (l != null) {
                    return new VaultLock(local, channel, l);
                }
                if (System.nanoTime() - deadline > 0) {
                    throw busy(lockFile, wait);
                }
                Thread.sleep(RETRY_MILLIS);
            }
        } catch (IOException e) {
            closeQuietly(channel);
            local.unlock();
            throw new SecretStoreException("Cannot lock the vault (" + lockFile + "): " + e.getMessage(), e);
        } catch (InterruptedException e) {
            closeQuietly(channel);
            local.unlock();
            Thread.currentThread().interrupt();
            throw new SecretStoreException("Interrupted while waiting for the vault", e);
        } catch (SecretStoreException | RuntimeException e) {
            closeQuietly(channel);
            local.unlock();
            throw e;
        }
    }

    private static FileChannel open(Path file) throws IOException {
        Set<StandardOpenOption> options = Set.of(StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        if (FileSystems.getDefault().supportedFileAttributeViews().contains("posix")) {
            FileAttribute<?> ownerOnly = PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"));
            return FileChannel.open(file, options, ownerOnly);
        }
        return FileChannel.open(file, options);
    }

    private static SecretStoreException busy(Path lockFile, Duration wait) {
        return new SecretStoreException("The vault is in use by another GPUForge (a window or a command) and was not"
                + " released within " + wait.toSeconds() + " s; try again, or end the other GPUForge (lock file "
                + lockFile + ")");
    }

    private static void closeQuietly(FileChannel channel) {
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException ignored) {
                // closing releases the lock; nothing more to do if the descriptor is already gone
            }
        }
    }

    @Override
    public void close() {
        try {
            lock.release();
        } catch (IOException ignored) {
            // the channel is closed right after, which releases it too
        } finally {
            closeQuietly(channel);
            local.unlock();
        }
    }
}
