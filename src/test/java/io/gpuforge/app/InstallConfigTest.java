package io.gpuforge.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.app.settings.LanguageChoice;
import io.gpuforge.app.settings.SettingsDefaults;
import io.gpuforge.app.settings.ThemeChoice;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The app reads the config/ directory the installers place beside it (the packaged launcher names it with
 * -Dgpuforge.installConfig=$APPDIR/config): shipped defaults, then the admin's site file, then the user's own.
 */
class InstallConfigTest {

    @TempDir
    Path dir;

    @Test
    void aFreshUserOfAnInstallationStartsWithTheSiteAndShippedDefaults() throws Exception {
        Path config = Files.createDirectories(dir.resolve("opt/gpuforge/lib/app/config"));
        Files.writeString(config.resolve("defaults.json"), "{\"theme\":\"DARK\",\"samplerIntervalMillis\":500}");
        Files.writeString(config.resolve("site.json"), "{\"language\":\"CHINESE_SIMPLIFIED\"}");
        String before = System.getProperty(SettingsDefaults.INSTALL_CONFIG_PROPERTY);
        System.setProperty(SettingsDefaults.INSTALL_CONFIG_PROPERTY, config.toString());
        try (AppContext ctx = AppContext.create(AppPaths.underHome(dir.resolve("home")),
                new AppContext.Options(Optional.of(dir), Map.of(), false, 1000),
                (t, e) -> { throw new AssertionError("uncaught in " + t.getName(), e); })) {
            assertThat(ctx.settings().current().theme()).isEqualTo(ThemeChoice.DARK);
            assertThat(ctx.settings().current().language()).isEqualTo(LanguageChoice.CHINESE_SIMPLIFIED);
            assertThat(ctx.settings().current().samplerInterval()).isEqualTo(Duration.ofMillis(500));
        } finally {
            if (before == null) {
                System.clearProperty(SettingsDefaults.INSTALL_CONFIG_PROPERTY);
            } else {
                System.setProperty(SettingsDefaults.INSTALL_CONFIG_PROPERTY, before);
            }
        }
    }
}
