package io.gpuforge.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.app.connections.SecretsService;
import io.gpuforge.app.settings.LanguageChoice;
import io.gpuforge.app.settings.ThemeChoice;
import io.gpuforge.testing.TestContexts;
import io.gpuforge.testing.WebhookReceiver;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A webhook without a token posts on a machine where no vault was ever set up (issue 59, finding 5): no token can
 * have been saved there, so the post goes without one instead of never going out.
 */
class WebhookWithoutVaultTest {

    @TempDir
    Path dir;

    @Test
    void withNoVaultTheAlertIsPostedWithoutAToken() throws Exception {
        try (AppContext ctx = TestContexts.create(dir.resolve("home"), dir.resolve("no-sysroot"), ThemeChoice.LIGHT,
                LanguageChoice.ENGLISH); WebhookReceiver receiver = new WebhookReceiver()) {
            assertThat(ctx.secrets().state()).isEqualTo(SecretsService.State.VAULT_NOT_SET_UP);
            assertThat(ctx.webhook().test(receiver.url("/hook"))).contains("answered HTTP 200");
            assertThat(receiver.posts()).singleElement().satisfies(p -> assertThat(p.authorization()).isNull());
        }
    }
}
