package io.gpuforge.app;

import io.gpuforge.host.ProcessUmask;
import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.FileVisitOption;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.util.EnumSet;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * GPUForge's own files readable by their owner only: its settings, the SQLite database (with its WAL and SHM), the
 * vault and the logs (rolled ones too) hold connection details, task logs and host facts. From the start of the
 * {@code gpuforge} command and the window on, the process's umask is {@code 077}, so whatever creates a file later
 * creates it {@code 0600} (a directory {@code 0700}), also where the user's umask is {@code 022}; and at every start the
 * files and directories an earlier version (or another umask) left open are tightened. On a file system without POSIX
 * permissions (Windows) nothing is done: the user's profile directory is private there already.
 */
public final class FilePrivacy {

    private static final Logger LOG = LoggerFactory.getLogger(FilePrivacy.class);
    /** The umask of the {@code gpuforge} process: no bit for the group or others. */
    public static final int OWNER_ONLY_UMASK = 0077;
    private static final int MAX_DEPTH = 16;
    private static final Set<PosixFilePermission> OPEN = EnumSet.of(PosixFilePermission.GROUP_READ,
            PosixFilePermission.GROUP_WRITE, PosixFilePermission.GROUP_EXECUTE, PosixFilePermission.OTHERS_READ,
            PosixFilePermission.OTHERS_WRITE, PosixFilePermission.OTHERS_EXECUTE);

    private FilePrivacy() {
    }

    /** Files and directories this process creates from now on are its owner's only (umask 077). */
    public static void ownerOnlyFromNowOn() {
        ProcessUmask.set(OWNER_ONLY_UMASK).ifPresent(before -> LOG.debug("umask {} (was {})",
                Integer.toOctalString(OWNER_ONLY_UMASK), Integer.toOctalString(before)));
    }

    /**
     * Takes the group's and others' permissions off {@code root} and everything under it: directories become
     * {@code 0700} (or less), files lose every group and other bit. Symbolic links are neither followed nor changed,
     * and a file that is not the user's (it cannot be changed) is left as it is, with a line in the log. Returns how
     * many were tightened.
     */
    public static int tighten(Path root) throws IOException {
        if (!Files.isDirectory(root, LinkOption.NOFOLLOW_LINKS)
                || Files.getFileAttributeView(root, PosixFileAttributeView.class, LinkOption.NOFOLLOW_LINKS) == null) {
            return 0;
        }
        int[] count = {0};
        Files.walkFileTree(root, EnumSet.noneOf(FileVisitOption.class), MAX_DEPTH, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
                count[0] += ownerOnly(dir) ? 1 : 0;
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                if (attrs.isRegularFile() || attrs.isDirectory()) { // a directory deeper than MAX_DEPTH comes here
                    count[0] += ownerOnly(file) ? 1 : 0;
                }
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(Path file, IOException e) {
                LOG.warn("{} could not be read to make it owner-only: {}", file, e.toString());
                return FileVisitResult.CONTINUE;
            }
        });
        if (count[0] > 0) {
            LOG.info("Made {} file(s) and directories under {} readable by their owner only", count[0], root);
        }
        return count[0];
    }

    /** Takes the group's and others' bits off one file or directory; whether it had any. */
    private static boolean ownerOnly(Path p) {
        try {
            PosixFileAttributeView view = Files.getFileAttributeView(p, PosixFileAttributeView.class,
                    LinkOption.NOFOLLOW_LINKS);
            Set<PosixFilePermission> perms = view.readAttributes().permissions();
            if (perms.stream().noneMatch(OPEN::contains)) {
                return false;
            }
            Set<PosixFilePermission> tight = EnumSet.copyOf(perms);
            tight.removeAll(OPEN);
            view.setPermissions(tight);
            return true;
        } catch (IOException e) {
            LOG.warn("{} stays readable by others: {}", p, e.toString());
            return false;
        }
    }
}
