package io.gpuforge.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.app.vmcreate.TemplateService;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.joran.JoranConfigurator;
import ch.qos.logback.classic.util.LogbackMDCAdapter;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gpuforge.app.settings.LanguageChoice;
import io.gpuforge.app.settings.Settings;
import io.gpuforge.app.settings.SettingsDefaults;
import io.gpuforge.app.settings.SettingsStore;
import io.gpuforge.app.settings.ThemeChoice;
import io.gpuforge.testing.HostTrees;
import io.gpuforge.testing.TestContexts;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What config/ ships beside the app does what config/README.md says: the defaults are settings GPUForge knows and
 * takes, the admin's site file is read over them, the Logback configuration writes the log into the per-user log
 * directory, and the example templates import into the template manager.
 */
class ShippedConfigTest {

    private static final Path CONFIG = Path.of("config");

    @TempDir
    Path dir;

    @Test
    void theShippedDefaultsAreSettingsGpuForgeKnowsAndTheyTakeEffect() throws Exception {
        ObjectMapper mapper = new ObjectMapper();
        Set<String> known = Arrays.stream(Settings.class.getRecordComponents()).map(c -> c.getName())
                .collect(Collectors.toSet());
        for (String file : new String[] {SettingsDefaults.SHIPPED_FILE, SettingsDefaults.SITE_FILE}) {
            JsonNode tree = mapper.readTree(CONFIG.resolve(file).toFile());
            assertThat(tree.isObject()).as(file).isTrue();
            tree.fieldNames().forEachRemaining(name -> assertThat(known).as(file + ": " + name).contains(name));
        }
        ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
        try (SettingsStore store = new SettingsStore(dir.resolve("settings.json"),
                SettingsDefaults.read(Optional.of(CONFIG), mapper), timer, Duration.ofMillis(1))) {
            Settings s = store.current();
            assertThat(s.theme()).isEqualTo(ThemeChoice.SYSTEM);
            assertThat(s.language()).isEqualTo(LanguageChoice.SYSTEM);
            assertThat(s.samplerInterval()).isEqualTo(Duration.ofSeconds(1));
            assertThat(s.retention().raw()).isEqualTo(Duration.ofHours(48));
            assertThat(s.retention().rollups()).isEqualTo(Duration.ofDays(90));
        } finally {
            timer.shutdownNow();
        }
    }

    @Test
    void theLogbackConfigurationWritesTheLogIntoTheUsersLogDirectory() throws Exception {
        Path logs = dir.resolve("logs");
        LoggerContext context = new LoggerContext();
        context.setMDCAdapter(new LogbackMDCAdapter());
        context.putProperty("gpuforge.logdir", logs.toString());
        JoranConfigurator joran = new JoranConfigurator();
        joran.setContext(context);
        joran.doConfigure(CONFIG.resolve("logback.xml").toFile());
        context.getLogger("io.gpuforge.test").info("hello from the shipped configuration");
        context.getLogger("io.gpuforge.test").debug("not at the default level");
        context.stop();
        String log = Files.readString(logs.resolve("gpuforge.log"), StandardCharsets.UTF_8);
        assertThat(log).contains("INFO ").contains("hello from the shipped configuration")
                .doesNotContain("not at the default level");
    }

    @Test
    void theExampleTemplatesImportIntoTheTemplateManager() throws Exception {
        Path sysroot = HostTrees.proxmoxSystemdBoot(dir.resolve("sysroot"));
        try (AppContext app = TestContexts.create(dir.resolve("home"), sysroot, ThemeChoice.LIGHT,
                LanguageChoice.ENGLISH)) {
            String file = Files.readString(CONFIG.resolve("templates/lab-templates.json"), StandardCharsets.UTF_8);
            TemplateService.Imported imported = app.templates().importJson(file);
            assertThat(imported.added()).isNotEmpty();
            assertThat(app.templates().all()).anyMatch(t -> t.name().startsWith("Lab: "));
        }
    }
}
