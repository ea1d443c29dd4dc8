package io.gpuforge.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.app.host.OsFamily;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * GPUForge's directories as an earlier version left them under umask 022 (0755 directories, 0644 files: the
 * database and its WAL, the logs and a rolled one, the settings) are the user's alone after the next start.
 */
class FilePrivacyTest {

    @TempDir
    Path dir;

    @Test
    void filesLeftOpenBeforeAreTightenedAtStartAndALinkOutIsNotFollowed() throws Exception {
        AppPaths paths = AppPaths.underHome(dir.resolve("home"));
        List<Path> files = List.of(paths.settingsFile(), paths.databaseFile(), paths.dataDir().resolve("gpuforge.db-wal"),
                paths.dataDir().resolve("gpuforge.db-shm"), paths.logDir().resolve("gpuforge.log"),
                paths.logDir().resolve("gpuforge.2026-12-01.0.log.gz"), paths.dataDir().resolve("known/hosts"));
        for (Path f : files) {
            Files.createDirectories(f.getParent(), PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-xr-x")));
            Files.writeString(f, "x");
            Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rw-r--r--"));
        }
        for (Path d : List.of(paths.configDir(), paths.dataDir(), paths.logDir(), paths.dataDir().resolve("known"))) {
            Files.setPosixFilePermissions(d, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
        Path outside = Files.writeString(dir.resolve("someone-elses.txt"), "y");
        Files.setPosixFilePermissions(outside, PosixFilePermissions.fromString("rw-r--r--"));
        Files.createSymbolicLink(paths.dataDir().resolve("link"), outside);

        paths.createAll();

        for (Path f : files) {
            assertThat(mode(f)).as(f.toString()).isEqualTo("rw-------");
        }
        for (Path d : List.of(paths.configDir(), paths.dataDir(), paths.logDir(), paths.dataDir().resolve("known"))) {
            assertThat(mode(d)).as(d.toString()).isEqualTo("rwx------");
        }
        assertThat(mode(outside)).as("a link is not followed out of GPUForge's directories").isEqualTo("rw-r--r--");
    }

    @Test
    void onLinuxTheStateDirectoryOfTheLogsIsGpuforgesToo() {
        AppPaths p = AppPaths.resolve(OsFamily.LINUX, Map.of(), "/home/ada", null);
        assertThat(p.ownDirs()).containsExactly(Path.of("/home/ada/.config/gpuforge"),
                Path.of("/home/ada/.local/share/gpuforge"), Path.of("/home/ada/.local/state/gpuforge"));
    }

    private static String mode(Path p) throws Exception {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(p, LinkOption.NOFOLLOW_LINKS));
    }
}
