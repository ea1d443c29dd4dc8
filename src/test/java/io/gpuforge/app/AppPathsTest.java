package io.gpuforge.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.app.host.OsFamily;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AppPathsTest {

    @Test
    void linuxUsesXdgDefaultsUnderHome() {
        AppPaths p = AppPaths.resolve(OsFamily.LINUX, Map.of(), "/home/ada", null);
        assertThat(p.configDir()).isEqualTo(Path.of("/home/ada/.config/gpuforge"));
        assertThat(p.dataDir()).isEqualTo(Path.of("/home/ada/.local/share/gpuforge"));
        assertThat(p.logDir()).isEqualTo(Path.of("/home/ada/.local/state/gpuforge/logs"));
        assertThat(p.settingsFile()).isEqualTo(Path.of("/home/ada/.config/gpuforge/settings.json"));
        assertThat(p.databaseFile()).isEqualTo(Path.of("/home/ada/.local/share/gpuforge/gpuforge.db"));
    }

    @Test
    void linuxHonoursXdgVariablesButIgnoresRelativeOnes() {
        AppPaths p = AppPaths.resolve(OsFamily.LINUX,
                Map.of("XDG_CONFIG_HOME", "/cfg", "XDG_DATA_HOME", "relative/data", "XDG_STATE_HOME", "/st"),
                "/home/ada", null);
        assertThat(p.configDir()).isEqualTo(Path.of("/cfg/gpuforge"));
        assertThat(p.dataDir()).isEqualTo(Path.of("/home/ada/.local/share/gpuforge"));
        assertThat(p.logDir()).isEqualTo(Path.of("/st/gpuforge/logs"));
    }

    @Test
    void theServiceHomeVariableHoldsEverythingUnlessThePropertyIsSet() {
        Map<String, String> env = Map.of("GPUFORGE_HOME", "/var/lib/gpuforge", "XDG_CONFIG_HOME", "/cfg");
        AppPaths service = AppPaths.resolve(OsFamily.LINUX, env, "/nonexistent", null);
        assertThat(service.configDir()).isEqualTo(Path.of("/var/lib/gpuforge/config"));
        assertThat(service.databaseFile()).isEqualTo(Path.of("/var/lib/gpuforge/data/gpuforge.db"));
        assertThat(service.logDir()).isEqualTo(Path.of("/var/lib/gpuforge/logs"));
        assertThat(AppPaths.resolve(OsFamily.LINUX, env, "/home/ada", "/tmp/h").dataDir())
                .isEqualTo(Path.of("/tmp/h/data"));
        assertThat(AppPaths.resolve(OsFamily.LINUX, Map.of("GPUFORGE_HOME", "relative"), "/home/ada", null)
                .configDir()).as("a relative home is ignored").isEqualTo(Path.of("/home/ada/.config/gpuforge"));
    }

    @Test
    void windowsUsesAppData() {
        AppPaths p = AppPaths.resolve(OsFamily.WINDOWS,
                Map.of("APPDATA", "/C/Users/ada/AppData/Roaming", "LOCALAPPDATA", "/C/Users/ada/AppData/Local"),
                "/C/Users/ada", null);
        assertThat(p.configDir()).isEqualTo(Path.of("/C/Users/ada/AppData/Roaming/GPUForge"));
        assertThat(p.dataDir()).isEqualTo(Path.of("/C/Users/ada/AppData/Local/GPUForge"));
        assertThat(p.logDir()).isEqualTo(Path.of("/C/Users/ada/AppData/Local/GPUForge/logs"));
    }

    @Test
    void macUsesApplicationSupportAndLibraryLogs() {
        AppPaths p = AppPaths.resolve(OsFamily.MAC, Map.of(), "/Users/ada", null);
        assertThat(p.configDir()).isEqualTo(Path.of("/Users/ada/Library/Application Support/GPUForge"));
        assertThat(p.logDir()).isEqualTo(Path.of("/Users/ada/Library/Logs/GPUForge"));
    }

    @Test
    void overrideWinsOnEveryPlatform() {
        for (OsFamily os : OsFamily.values()) {
            AppPaths p = AppPaths.resolve(os, Map.of("XDG_CONFIG_HOME", "/cfg"), "/home/ada", "/tmp/gf");
            assertThat(p.configDir()).isEqualTo(Path.of("/tmp/gf/config"));
            assertThat(p.dataDir()).isEqualTo(Path.of("/tmp/gf/data"));
            assertThat(p.logDir()).isEqualTo(Path.of("/tmp/gf/logs"));
        }
    }

    @Test
    void osNamesMapToFamilies() {
        assertThat(OsFamily.fromName("Linux")).isEqualTo(OsFamily.LINUX);
        assertThat(OsFamily.fromName("Windows 11")).isEqualTo(OsFamily.WINDOWS);
        assertThat(OsFamily.fromName("Mac OS X")).isEqualTo(OsFamily.MAC);
        assertThat(OsFamily.fromName("FreeBSD")).isEqualTo(OsFamily.OTHER);
    }
}
