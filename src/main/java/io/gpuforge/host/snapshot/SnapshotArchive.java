package io.gpuforge.host.snapshot;

import io.gpuforge.host.ProbeException;

import io.gpuforge.bounded.BoundedProcess;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import java.util.zip.ZipException;

/**
 * A snapshot's {@code .tar.gz}, packed and unpacked with the system's tar. An archive may come from
 * anyone: before it is unpacked its size and every member's name and type are checked (plain files,
 * directories and links only, relative names without {@code ..}); tar then runs with flags that keep
 * owners and modes from the archive off this machine, and the unpacked tree is checked again (every
 * link's target stays inside it) before anything reads it.
 *
 * @param tar     the tar program
 * @param timeout how long one tar run may take
 */
public record SnapshotArchive(String tar, Duration timeout) {

    /** Far more than a snapshot holds (a 120-device host packs to about 100 KB). */
    static final long MAX_UNPACKED_BYTES = 256L << 20;
    static final int MAX_MEMBERS = 200_000;
    /** What tar may print: its listing of a full-size snapshot, and its complaints. */
    static final int MAX_OUTPUT_BYTES = 32 << 20;

    static SnapshotArchive system() {
        return new SnapshotArchive("tar", Duration.ofMinutes(2));
    }

    void pack(Path tree, Path archive) throws IOException {
        BoundedProcess.Output r = tar("-czf", archive.toAbsolutePath().toString(), "-C", tree.toString(), ".");
        if (r.exitCode() != 0) {
            throw new IOException("tar failed: " + r.text().strip());
        }
    }

    /** Unpacks {@code archive} into a new temporary directory, or refuses it; the caller deletes the directory. */
    Path unpack(Path archive) throws ProbeException {
        if (!Files.isRegularFile(archive)) {
            throw new ProbeException("The snapshot " + archive + " is not a file");
        }
        Path dir = null;
        try {
            checkSize(archive);
            checkMembers(archive);
            dir = Files.createTempDirectory("gpuforge-sysroot-");
            BoundedProcess.Output r = tar("-xzf", archive.toAbsolutePath().toString(), "-C", dir.toString(),
                    "--no-same-owner", "--no-same-permissions", "--no-overwrite-dir");
            if (r.exitCode() != 0) {
                throw new ProbeException("The snapshot " + archive + " could not be unpacked: " + r.text().strip());
            }
            checkTree(archive, dir);
            return dir;
        } catch (IOException e) {
            Snapshot.deleteTree(dir);
            throw new ProbeException("The snapshot " + archive + " could not be unpacked: " + e.getMessage(), e);
        } catch (ProbeException | RuntimeException e) {
            Snapshot.deleteTree(dir);
            throw e;
        }
    }

    private BoundedProcess.Output tar(String... args) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(tar);
        command.addAll(List.of(args));
        return BoundedProcess.run(command, timeout, MAX_OUTPUT_BYTES);
    }

    private static void checkSize(Path archive) throws ProbeException, IOException {
        long total = 0;
        byte[] buf = new byte[65536];
        try (InputStream in = new GZIPInputStream(Files.newInputStream(archive))) {
            int n;
            while ((n = in.read(buf)) > 0) {
                total += n;
                if (total > MAX_UNPACKED_BYTES) {
                    throw new ProbeException("The snapshot " + archive + " unpacks to more than "
                            + (MAX_UNPACKED_BYTES >> 20) + " MB, far more than any snapshot holds; not unpacked");
                }
            }
        } catch (ZipException e) {
            throw new ProbeException("The snapshot " + archive + " is not a .tar.gz (" + e.getMessage()
                    + "); make one with gpuforge snapshot", e);
        }
    }

    private void checkMembers(Path archive) throws ProbeException, IOException {
        String where = archive.toAbsolutePath().toString();
        BoundedProcess.Output names = tar("-tzf", where, "--absolute-names");
        BoundedProcess.Output types = tar("-tvzf", where, "--absolute-names", "--numeric-owner");
        if (names.exitCode() != 0 || types.exitCode() != 0) {
            throw new ProbeException("The snapshot " + archive + " is not a readable .tar.gz: "
                    + (names.exitCode() != 0 ? names : types).text().strip());
        }
        List<String> n = names.text().lines().toList();
        List<String> t = types.text().lines().toList();
        if (n.size() != t.size() || n.size() > MAX_MEMBERS) {
            throw new ProbeException("The snapshot " + archive + " has " + n.size() + " members; not a snapshot"
                    + " gpuforge snapshot makes");
        }
        for (int i = 0; i < n.size(); i++) {
            String name = n.get(i);
            String problem = null;
            if (name.startsWith("/")) {
                problem = "an absolute name";
            } else if (List.of(name.split("/")).contains("..")) {
                problem = "a name that climbs out with '..'";
            } else if (t.get(i).isEmpty() || "-dl".indexOf(t.get(i).charAt(0)) < 0) {
                problem = "a member that is not a file, directory or symbolic link ('" + t.get(i).charAt(0) + "')";
            }
            if (problem != null) {
                throw new ProbeException("The snapshot " + archive + " holds " + problem + ": '" + name
                        + "'. A snapshot made by gpuforge snapshot never does; it was not unpacked.");
            }
        }
    }

    /** Every entry a plain file, directory or link that stays inside; modes owner-only (no set-id bits). */
    private static void checkTree(Path archive, Path dir) throws ProbeException, IOException {
        List<Path> all;
        try (Stream<Path> walk = Files.walk(dir)) {
            all = walk.toList();
        }
        for (Path p : all) {
            String inTree = "/" + dir.relativize(p).toString().replace('\\', '/');
            if (Files.isSymbolicLink(p)) {
                String target = Files.readSymbolicLink(p).toString();
                SnapshotLayout.Link link = SnapshotLayout.checkLink(inTree, target);
                if (link.target().isEmpty()) {
                    throw new ProbeException("The snapshot " + archive + " holds a link " + inTree + " -> " + target
                            + " (" + link.problem() + "). A snapshot made by gpuforge snapshot never does; not used.");
                }
                if (!link.target().get().equals(target)) {
                    Files.delete(p);
                    Files.createSymbolicLink(p, Path.of(link.target().get()));
                }
            } else if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
                Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwx------"));
            } else if (Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) {
                Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rw-------"));
            } else {
                throw new ProbeException("The snapshot " + archive + " holds " + inTree + ", which is not a file,"
                        + " directory or link; not used.");
            }
        }
    }
}
