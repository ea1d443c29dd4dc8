package io.gpuforge.store;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Replaces a local file atomically and durably: the bytes go to a temp file in the same directory, which is
 * flushed to the disk (fsync), renamed over the old file, and then the directory is flushed so that the
 * rename itself survives a power loss. A reader sees the old or the new file, never a mix or an empty one.
 */
public final class AtomicFiles {

    private static final Logger LOG = LoggerFactory.getLogger(AtomicFiles.class);

    private AtomicFiles() {
    }

    /** @param ownerOnly create the file readable by its owner only (where the file system has POSIX modes) */
    public static void write(Path file, byte[] bytes, boolean ownerOnly) throws IOException {
        Path dir = file.toAbsolutePath().getParent();
        Files.createDirectories(dir);
        String prefix = "." + file.getFileName() + "-";
        boolean posix = FileSystems.getDefault().supportedFileAttributeViews().contains("posix");
        Path tmp = ownerOnly && posix
                ? Files.createTempFile(dir, prefix, ".tmp",
                        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")))
                : Files.createTempFile(dir, prefix, ".tmp");
        try {
            try (FileChannel out = FileChannel.open(tmp, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
                ByteBuffer buffer = ByteBuffer.wrap(bytes);
                while (buffer.hasRemaining()) {
                    out.write(buffer);
                }
                out.force(true);
            }
            try {
                Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(tmp);
        }
        if (posix) {
            syncDirectory(dir);
        }
    }

    /**
     * Flushes a directory's entries (the rename just made). The new file is complete on the disk already; if
     * the file system cannot sync a directory, only the rename's durability on a power cut is at stake, so
     * this is logged rather than reported as a failed write.
     */
    private static void syncDirectory(Path dir) {
        try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
            d.force(true);
        } catch (IOException e) {
            LOG.warn("Could not flush the directory {} to the disk ({}); the file written there is complete, but a"
                    + " power cut right now could bring back its previous version", dir, e.toString());
        }
    }
}
