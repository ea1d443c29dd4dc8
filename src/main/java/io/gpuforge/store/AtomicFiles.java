package io.gpuforge.store;

import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;

/** Replaces a local file atomically: a temp file in the same directory, then a rename over the old one. */
public final class AtomicFiles {

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
            Files.write(tmp, bytes);
            try {
                Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(tmp);
        }
    }
}
