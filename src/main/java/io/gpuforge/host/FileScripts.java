package io.gpuforge.host;

/**
 * The start of every script that reads or writes a host's files, for the scripts {@code app/} writes itself: {@code R}
 * (the root: empty on a host, a sysroot's directory), {@code set -e}, {@code fail}, and {@code target PATH}, which
 * follows a path's symbolic links the way the host would (an absolute link is a path under {@code R}) and, under a
 * sysroot, refuses (exit 3) a path that resolves outside it, so a link in a mounted disk never reads or writes this
 * machine's own files.
 */
public final class FileScripts {

    public static final String PRELUDE = RemoteFiles.PRELUDE;

    private FileScripts() {
    }
}
