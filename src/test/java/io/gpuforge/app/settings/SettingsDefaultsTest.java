package io.gpuforge.app.settings;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.gpuforge.store.TelemetryStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The installation's config/defaults.json and the admin's config/site.json under a user's settings.json. */
class SettingsDefaultsTest {

    @TempDir
    Path dir;

    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
    private final ObjectMapper mapper = new ObjectMapper();

    @AfterEach
    void stop() {
        scheduler.shutdownNow();
    }

    private Path install(String defaults, String site) throws Exception {
        Path config = Files.createDirectories(dir.resolve("app/config"));
        if (defaults != null) {
            Files.writeString(config.resolve(SettingsDefaults.SHIPPED_FILE), defaults);
        }
        if (site != null) {
            Files.writeString(config.resolve(SettingsDefaults.SITE_FILE), site);
        }
        return config;
    }

    private SettingsStore store(Path config) {
        return new SettingsStore(dir.resolve("user/settings.json"),
                SettingsDefaults.read(Optional.of(config), mapper), scheduler, Duration.ofMillis(10));
    }

    @Test
    void aNewUserGetsTheShippedDefaultsAndTheSiteFileWinsOverThem() throws Exception {
        Path config = install("{\"theme\":\"LIGHT\",\"language\":\"ENGLISH\",\"samplerIntervalMillis\":2000,"
                + "\"rawRetentionHours\":24,\"rollupRetentionDays\":30}", "{\"language\":\"CHINESE_SIMPLIFIED\"}");
        Settings s = store(config).current();
        assertThat(s.theme()).isEqualTo(ThemeChoice.LIGHT);
        assertThat(s.language()).isEqualTo(LanguageChoice.CHINESE_SIMPLIFIED);
        assertThat(s.samplerInterval()).isEqualTo(Duration.ofSeconds(2));
        assertThat(s.retention()).isEqualTo(new TelemetryStore.Retention(Duration.ofHours(24), Duration.ofDays(30)));
    }

    @Test
    void theUsersOwnChoiceWinsAndOnlyItIsWrittenSoALaterSiteChangeStillReachesTheUser() throws Exception {
        Path config = install("{\"theme\":\"LIGHT\"}", "{\"language\":\"ENGLISH\"}");
        SettingsStore s = store(config);
        s.update(x -> x.withTheme(ThemeChoice.DARK));
        s.flush();
        String written = Files.readString(dir.resolve("user/settings.json"));
        assertThat(written).contains("DARK").doesNotContain("ENGLISH");

        Files.writeString(config.resolve(SettingsDefaults.SITE_FILE), "{\"language\":\"CHINESE_SIMPLIFIED\"}");
        Settings again = store(config).current();
        assertThat(again.theme()).isEqualTo(ThemeChoice.DARK);
        assertThat(again.language()).isEqualTo(LanguageChoice.CHINESE_SIMPLIFIED);
    }

    @Test
    void aBrokenSiteFileIsSkippedAndTheShippedDefaultsStillApply() throws Exception {
        Path config = install("{\"theme\":\"DARK\"}", "{ not json");
        assertThat(store(config).current().theme()).isEqualTo(ThemeChoice.DARK);
    }

    @Test
    void outOfRangeValuesFallBackToTheBuiltInOnes() throws Exception {
        Path config = install("{\"samplerIntervalMillis\":5,\"rawRetentionHours\":100,\"rollupRetentionDays\":1}", null);
        Settings s = store(config).current();
        assertThat(s.samplerInterval()).isEqualTo(Duration.ofSeconds(1));
        assertThat(s.retention()).isEqualTo(TelemetryStore.Retention.defaults());
    }

    @Test
    void theShippedConfigDirectoryOfThisCheckoutIsValid() {
        Settings s = store(Path.of("config")).current();
        assertThat(s.samplerInterval()).isEqualTo(Duration.ofSeconds(1));
        assertThat(s.retention()).isEqualTo(TelemetryStore.Retention.defaults());
        assertThat(s.theme()).isEqualTo(ThemeChoice.SYSTEM);
    }
}
