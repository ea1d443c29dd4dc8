package io.gpuforge.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The welcome page opens by itself only while nothing is configured and the user has not turned it off. */
class FirstRunTest {

    @TempDir
    Path dir;

    private AppContext open() throws Exception {
        return AppContext.create(AppPaths.underHome(dir.resolve("home")),
                new AppContext.Options(Optional.of(dir), Map.of(), false, 1000),
                (t, e) -> { throw new AssertionError("uncaught in " + t.getName(), e); });
    }

    @Test
    void nothingConfiguredShowsTheWelcomeAndASavedConnectionEndsThat() throws Exception {
        try (AppContext ctx = open()) {
            FirstRun first = new FirstRun(ctx.settings(), ctx.connections());
            assertThat(first.showWelcomeAtStart()).isTrue();
            ctx.connections().addLibvirt("lab", "test:///default");
            assertThat(first.showWelcomeAtStart()).isFalse();
        }
    }

    @Test
    void dismissingItIsRememberedAcrossARestart() throws Exception {
        try (AppContext ctx = open()) {
            new FirstRun(ctx.settings(), ctx.connections()).setDismissed(true);
        }
        try (AppContext ctx = open()) {
            FirstRun first = new FirstRun(ctx.settings(), ctx.connections());
            assertThat(first.dismissed()).isTrue();
            assertThat(first.showWelcomeAtStart()).isFalse();
            first.setDismissed(false);
            assertThat(first.showWelcomeAtStart()).isTrue();
        }
    }
}
