package io.gpuforge.cli.common;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A file the command line names to be read: what is wrong with it said in one line (a usage error) before anything
 * reads it — missing, a directory, a FIFO or a device (which would block, or never end), unreadable.
 */
public final class InputFile {

    private InputFile() {
    }

    /** {@code file} if it is a regular file this process can read; else IllegalArgumentException naming why. */
    public static Path require(Path file, String option) {
        String what = option + " " + file;
        if (!Files.exists(file)) {
            throw new IllegalArgumentException(what + ": no such file");
        }
        if (Files.isDirectory(file)) {
            throw new IllegalArgumentException(what + " is a directory, not a file");
        }
        if (!Files.isRegularFile(file)) {
            throw new IllegalArgumentException(what + " is " + kind(file) + ", not a regular file: give a file");
        }
        if (!Files.isReadable(file)) {
            throw new IllegalArgumentException(what + ": not readable by this user");
        }
        return file;
    }

    /** {@code dir} if it is a directory; else IllegalArgumentException naming what it is. */
    public static Path requireDirectory(Path dir, String option) {
        String what = option + " " + dir;
        if (!Files.exists(dir)) {
            throw new IllegalArgumentException(what + ": no such directory");
        }
        if (!Files.isDirectory(dir)) {
            throw new IllegalArgumentException(what + " is " + (Files.isRegularFile(dir) ? "a file" : kind(dir))
                    + ", not a directory");
        }
        return dir;
    }

    /** "a FIFO", "a character device", "a block device", "a socket", else "a special file". */
    static String kind(Path p) {
        try {
            if (Files.getAttribute(p, "unix:mode") instanceof Integer mode && !type(mode).isEmpty()) {
                return type(mode);
            }
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            // no unix attributes here: said generally
        }
        return "a special file";
    }

    private static String type(int mode) {
        switch (mode & 0170000) {
            case 0010000:
                return "a FIFO";
            case 0020000:
                return "a character device";
            case 0060000:
                return "a block device";
            case 0140000:
                return "a socket";
            default:
                return "";
        }
    }
}
