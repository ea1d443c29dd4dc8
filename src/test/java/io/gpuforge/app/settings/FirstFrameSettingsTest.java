package io.gpuforge.app.settings;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The window's first frame is drawn from the settings read without the settings store; it must look as the window
 * the store then fills in: same theme, language, place and size, whatever layer each value came from.
 */
class FirstFrameSettingsTest {

    @TempDir
    Path dir;
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();

    @AfterEach
    void stop() {
        timer.shutdownNow();
    }

    private Settings store(Path user, Optional<Path> install) throws Exception {
        try (SettingsStore s = new SettingsStore(user, SettingsDefaults.read(install, new ObjectMapper()), timer,
                Duration.ofMillis(1))) {
            return s.current();
        }
    }

    private static void assertSame(FirstFrameSettings first, Settings full) {
        assertThat(first.theme()).isEqualTo(full.theme());
        assertThat(first.language()).isEqualTo(full.language());
        assertThat(first.window()).isEqualTo(full.window());
        assertThat(first.navigationDivider()).isEqualTo(full.navigationDivider());
    }

    @Test
    void theUsersOwnChoicesOverTheSiteAndShippedDefaultsAsTheStoreReadsThem() throws Exception {
        Path install = Files.createDirectories(dir.resolve("install"));
        Files.writeString(install.resolve("defaults.json"), "{\"theme\":\"LIGHT\",\"language\":\"ENGLISH\"}");
        Files.writeString(install.resolve("site.json"), "{\"language\":\"CHINESE_SIMPLIFIED\",\"theme\":\"DARK\"}");
        Path user = dir.resolve("settings.json");
        Files.writeString(user, "{\"version\":1,\"theme\":\"LIGHT\",\"window\":{\"x\":40.0,\"y\":30.5,"
                + "\"width\":1000.0,\"height\":700.0,\"maximized\":true},\"navigationDivider\":0.31,"
                + "\"newHostKeys\":\"GPUFORGE\",\"extra\":{\"nested\":[1,2,{\"theme\":\"SYSTEM\"}]}}");

        FirstFrameSettings first = FirstFrameSettings.read(user, Optional.of(install));

        assertThat(first.theme()).isEqualTo(ThemeChoice.LIGHT);
        assertThat(first.language()).isEqualTo(LanguageChoice.CHINESE_SIMPLIFIED);
        assertThat(first.window()).isEqualTo(new WindowBounds(40, 30.5, 1000, 700, true));
        assertSame(first, store(user, Optional.of(install)));
    }

    @Test
    void withoutAnyFileItIsTheBuiltInDefaults() throws Exception {
        Path user = dir.resolve("settings.json");
        FirstFrameSettings first = FirstFrameSettings.read(user, Optional.empty());
        assertThat(first).isEqualTo(new FirstFrameSettings(ThemeChoice.SYSTEM, LanguageChoice.SYSTEM, null, null));
        assertSame(first, store(user, Optional.empty()));
    }

    @Test
    void anUnreadableUserFileLeavesTheInstallationsDefaultsAsTheStoreDoes() throws Exception {
        Path install = Files.createDirectories(dir.resolve("install"));
        Files.writeString(install.resolve("site.json"), "{\"theme\":\"DARK\"}");
        Path user = dir.resolve("settings.json");
        Files.writeString(user, "{\"theme\":\"LIGHT\",\"window\":{\"x\":1");

        FirstFrameSettings first = FirstFrameSettings.read(user, Optional.of(install));

        assertThat(first.theme()).isEqualTo(ThemeChoice.DARK);
        assertSame(first, store(user, Optional.of(install)));
    }

    @Test
    void aValueThatDoesNotFitKeepsTheLayerBelow() throws Exception {
        Path install = Files.createDirectories(dir.resolve("install"));
        Files.writeString(install.resolve("defaults.json"), "{\"theme\":\"DARK\"}");
        Path user = dir.resolve("settings.json");
        Files.writeString(user, "{\"theme\":\"PURPLE\",\"language\":7,\"navigationDivider\":2.0}");

        FirstFrameSettings first = FirstFrameSettings.read(user, Optional.of(install));

        assertThat(first.theme()).isEqualTo(ThemeChoice.DARK);
        assertThat(first.language()).isEqualTo(LanguageChoice.SYSTEM);
        assertThat(first.navigationDivider()).isNull();
    }
}
