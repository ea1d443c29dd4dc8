package io.gpuforge.testing;

import io.gpuforge.app.AppContext;
import io.gpuforge.app.AppPaths;
import io.gpuforge.app.settings.LanguageChoice;
import io.gpuforge.app.settings.ThemeChoice;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/** An application context in a temp home, reading "This computer" from a sysroot. */
public final class TestContexts {

    private TestContexts() {
    }

    public static AppContext create(Path home, Path sysroot, ThemeChoice theme, LanguageChoice language)
            throws Exception {
        AppContext ctx = firstRun(home, sysroot, theme, language);
        // the welcome page would open in front of every window test; FirstRunWindowTest opens it
        ctx.settings().update(s -> s.withWelcomeDismissed(true));
        return ctx;
    }

    /** A context as on the very first start: nothing configured, the welcome page not turned off. */
    public static AppContext firstRun(Path home, Path sysroot, ThemeChoice theme, LanguageChoice language)
            throws Exception {
        AppContext ctx = AppContext.create(AppPaths.underHome(home),
                new AppContext.Options(Optional.of(sysroot), Map.of(), false, 1000),
                (t, e) -> { throw new AssertionError("uncaught in " + t.getName(), e); });
        ctx.settings().update(s -> s.withTheme(theme).withLanguage(language));
        return ctx;
    }
}
