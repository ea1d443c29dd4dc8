package io.gpuforge.app.settings;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.testing.Eventually;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SettingsStoreTest {

    @TempDir
    Path dir;

    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();

    @AfterEach
    void stop() {
        scheduler.shutdownNow();
    }

    @Test
    void defaultsWhenNoFile() {
        SettingsStore s = new SettingsStore(dir.resolve("settings.json"), scheduler, Duration.ofMillis(50));
        assertThat(s.current()).isEqualTo(Settings.defaults());
    }

    @Test
    void aBurstOfChangesIsOneWriteAndSurvivesARestart() throws Exception {
        Path file = dir.resolve("settings.json");
        SettingsStore s = new SettingsStore(file, scheduler, Duration.ofMillis(200));
        for (int i = 0; i < 50; i++) {
            double w = 800 + i;
            s.update(x -> x.withWindow(new WindowBounds(10, 20, w, 600, false)));
        }
        s.update(x -> x.withTheme(ThemeChoice.DARK).withLanguage(LanguageChoice.CHINESE_SIMPLIFIED));
        assertThat(Files.exists(file)).as("nothing written before the debounce delay").isFalse();
        Eventually.until("the settings written", Duration.ofSeconds(10), () -> Files.exists(file));
        Thread.sleep(300);
        assertThat(s.writeCount()).isEqualTo(1);

        SettingsStore reread = new SettingsStore(file, scheduler, Duration.ofMillis(50));
        assertThat(reread.current().theme()).isEqualTo(ThemeChoice.DARK);
        assertThat(reread.current().language()).isEqualTo(LanguageChoice.CHINESE_SIMPLIFIED);
        assertThat(reread.current().window()).isEqualTo(new WindowBounds(10, 20, 849, 600, false));
        try (var files = Files.list(dir)) {
            assertThat(files.map(p -> p.getFileName().toString())).containsExactly("settings.json");
        }
    }

    @Test
    void closeFlushesAPendingChange() throws Exception {
        Path file = dir.resolve("settings.json");
        SettingsStore s = new SettingsStore(file, scheduler, Duration.ofHours(1));
        s.update(x -> x.withTheme(ThemeChoice.LIGHT));
        s.close();
        assertThat(Files.readString(file)).contains("\"LIGHT\"");
    }

    @Test
    void unchangedSettingsAreNotWritten() throws Exception {
        SettingsStore s = new SettingsStore(dir.resolve("settings.json"), scheduler, Duration.ofMillis(10));
        s.update(x -> x);
        Thread.sleep(100);
        assertThat(s.writeCount()).isZero();
    }

    @Test
    void brokenFileIsKeptAsideAndDefaultsUsed() throws Exception {
        Path file = dir.resolve("settings.json");
        Files.writeString(file, "{\"theme\": \"DARK\", \"window\": {\"x\": ");
        SettingsStore s = new SettingsStore(file, scheduler, Duration.ofMillis(10));
        assertThat(s.current()).isEqualTo(Settings.defaults());
        assertThat(dir.resolve("settings.json.broken")).hasContent("{\"theme\": \"DARK\", \"window\": {\"x\": ");
    }

    @Test
    void unknownFieldsAndValuesFromNewerVersionsAreTolerated() throws Exception {
        Path file = dir.resolve("settings.json");
        Files.writeString(file, "{\"version\": 1, \"theme\": \"DARK\", \"futureThing\": [1,2], \"navigationDivider\": 7}");
        SettingsStore s = new SettingsStore(file, scheduler, Duration.ofMillis(10));
        assertThat(s.current().theme()).isEqualTo(ThemeChoice.DARK);
        assertThat(s.current().navigationDivider()).as("out-of-range divider dropped").isNull();
    }

    @Test
    void languageChoiceFollowsTheOs() {
        assertThat(LanguageChoice.SYSTEM.resolve(java.util.Locale.SIMPLIFIED_CHINESE))
                .isEqualTo(java.util.Locale.SIMPLIFIED_CHINESE);
        assertThat(LanguageChoice.SYSTEM.resolve(java.util.Locale.forLanguageTag("zh-Hans-SG")))
                .isEqualTo(java.util.Locale.SIMPLIFIED_CHINESE);
        assertThat(LanguageChoice.SYSTEM.resolve(java.util.Locale.TRADITIONAL_CHINESE))
                .isEqualTo(java.util.Locale.ENGLISH);
        assertThat(LanguageChoice.SYSTEM.resolve(java.util.Locale.GERMANY)).isEqualTo(java.util.Locale.ENGLISH);
        assertThat(LanguageChoice.ENGLISH.resolve(java.util.Locale.SIMPLIFIED_CHINESE))
                .isEqualTo(java.util.Locale.ENGLISH);
    }
}
