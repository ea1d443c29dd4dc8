package io.gpuforge.boot;

import io.gpuforge.app.AppPaths;
import io.gpuforge.app.OsAppearance;
import io.gpuforge.app.settings.FirstFrameSettings;
import io.gpuforge.app.settings.SettingsDefaults;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * What the first frame needs besides the toolkit: the first-frame settings (theme, language, place and size) and the
 * desktop's light or dark preference (a helper process or two on Linux). Begun by {@code main} before JavaFX starts,
 * each on a thread of its own, so both are ready long before the toolkit (a third of a second) is; asking for them in
 * {@link GpuForgeApp#init()}, after the toolkit's start, kept the first frame waiting about 50 ms for them.
 */
final class EarlyStart {

    private final CompletableFuture<FirstFrameSettings> settings;
    private final CompletableFuture<Optional<Boolean>> osPrefersDark;

    private EarlyStart(CompletableFuture<FirstFrameSettings> settings,
                       CompletableFuture<Optional<Boolean>> osPrefersDark) {
        this.settings = settings;
        this.osPrefersDark = osPrefersDark;
    }

    static EarlyStart begin(AppPaths paths) {
        return new EarlyStart(
                on("gpuforge-first-settings",
                        () -> FirstFrameSettings.read(paths.settingsFile(), SettingsDefaults.installConfigDir())),
                on("gpuforge-appearance", () -> OsAppearance.system().prefersDark()));
    }

    FirstFrameSettings settings() {
        return settings.join();
    }

    Optional<Boolean> osPrefersDark() {
        return osPrefersDark.join();
    }

    private static <T> CompletableFuture<T> on(String thread, Supplier<T> work) {
        CompletableFuture<T> result = new CompletableFuture<>();
        Thread t = new Thread(() -> {
            try {
                result.complete(work.get());
            } catch (RuntimeException | Error e) {
                result.completeExceptionally(e);
            }
        }, thread);
        t.setDaemon(true);
        t.start();
        return result;
    }
}
