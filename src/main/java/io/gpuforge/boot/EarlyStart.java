package io.gpuforge.boot;

import io.gpuforge.app.AppPaths;
import io.gpuforge.app.OsAppearance;
import io.gpuforge.app.settings.FirstFrameSettings;
import io.gpuforge.app.settings.SettingsDefaults;
import io.gpuforge.ui.common.I18n;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * What the first frame needs besides the toolkit: the first-frame settings (theme, language, place and size), the UI's
 * strings in that language (eight resource bundles) and the desktop's light or dark preference (a helper process or
 * two on Linux). Begun by {@code main} before JavaFX starts, on two threads of their own, so all are ready long before
 * the toolkit (a third of a second) is; made in {@link GpuForgeApp#init()} and {@code start()}, after the toolkit's
 * start, they kept the first frame waiting about 65 ms.
 */
final class EarlyStart {

    /** The settings and the strings in their language, made on one thread: the second needs the first. */
    private record FirstFrame(FirstFrameSettings settings, I18n i18n) {
    }

    private final AppPaths paths;
    private final CompletableFuture<FirstFrame> firstFrame;
    private final CompletableFuture<Optional<Boolean>> osPrefersDark;

    private EarlyStart(AppPaths paths, CompletableFuture<FirstFrame> firstFrame,
                       CompletableFuture<Optional<Boolean>> osPrefersDark) {
        this.paths = paths;
        this.firstFrame = firstFrame;
        this.osPrefersDark = osPrefersDark;
    }

    static EarlyStart begin(AppPaths paths) {
        return new EarlyStart(paths,
                on("gpuforge-first-frame", () -> {
                    FirstFrameSettings s = FirstFrameSettings.read(paths.settingsFile(),
                            SettingsDefaults.installConfigDir());
                    return new FirstFrame(s, WindowStart.i18n(s));
                }),
                on("gpuforge-appearance", () -> OsAppearance.system().prefersDark()));
    }

    /** The per-user directories {@code main} resolved (and logging was pointed at). */
    AppPaths paths() {
        return paths;
    }

    FirstFrameSettings settings() {
        return firstFrame.join().settings();
    }

    /** Not yet bound to any node: the FX thread takes it over from here. */
    I18n i18n() {
        return firstFrame.join().i18n();
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
