package io.gpuforge.cli.alert;

import io.gpuforge.app.AppContext;
import io.gpuforge.app.monitor.AlertWebhook;
import io.gpuforge.app.settings.Settings;
import io.gpuforge.cli.common.CliCommand;
import io.gpuforge.cli.common.CliOutput;
import io.gpuforge.cli.common.CliServices;
import io.gpuforge.cli.common.CliVault;
import java.io.IOException;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code gpuforge alert webhook}: where fired and cleared alerts are posted as JSON (the settings' URL; its bearer
 * token in the secret store, read from stdin, never from the command line), a test post, or off.
 */
@Command(name = "webhook", mixinStandardHelpOptions = true, description = "Post fired and cleared alerts as JSON to a"
        + " webhook (Slack, Mattermost, Matrix, ntfy and alike read its text field): --url sets it, with"
        + " --token-stdin a bearer token kept in the secret store; --test posts a test message; --off stops it."
        + " Without options: what is set.")
final class AlertWebhookCommand extends CliCommand {
    @Option(names = "--url", paramLabel = "URL", description = "The webhook's http or https URL.")
    String url;
    @Option(names = "--token-stdin", description = "Read a bearer token from the first line of stdin (kept in the"
            + " secret store; sent as Authorization: Bearer).")
    boolean tokenStdin;
    @Option(names = "--no-token", description = "Forget the bearer token.")
    boolean noToken;
    @Option(names = "--off", description = "Post no more alerts (the token is forgotten too).")
    boolean off;
    @Option(names = "--test", description = "Post a test message now and say how the receiver answered.")
    boolean test;

    AlertWebhookCommand(CliServices services) {
        super(services);
    }

    @Override
    public Integer call() throws Exception {
        CliOutput o = services.output();
        if (off && (url != null || tokenStdin || test)) {
            o.error("gpuforge alert webhook: --off goes alone");
            return 2;
        }
        if (url != null && !Settings.validWebhook(url)) {
            String given = AlertWebhook.redacted(url);
            o.error("gpuforge alert webhook: --url takes an http or https URL such as https://ntfy.sh/gpus, not "
                    + (given.startsWith("(") ? "one without a scheme and host" : given));
            return 2;
        }
        if (tokenStdin && noToken) {
            o.error("gpuforge alert webhook: --token-stdin or --no-token, not both");
            return 2;
        }
        try (AppContext ctx = services.openContext()) {
            if (off) {
                ctx.settings().update(s -> s.withAlertWebhook(null));
                if (ctx.secrets().ready()) { // else there is no token to forget, or it stays locked
                    ctx.secrets().delete(AlertWebhook.TOKEN_KEY);
                }
            }
            if (url != null) {
                ctx.settings().update(s -> s.withAlertWebhook(url));
            }
            if (tokenStdin) {
                String line = services.readLine();
                if (line == null || line.isBlank()) {
                    o.error("gpuforge alert webhook: --token-stdin read no token");
                    return 2;
                }
                CliVault.readyToStore(ctx, services);
                char[] token = line.strip().toCharArray();
                try {
                    ctx.secrets().put(AlertWebhook.TOKEN_KEY, token);
                } finally {
                    Arrays.fill(token, '\0');
                }
            }
            if (noToken) {
                CliVault.readyToStore(ctx, services);
                ctx.secrets().delete(AlertWebhook.TOKEN_KEY);
            }
            ctx.settings().flush();
            Optional<String> now = Optional.ofNullable(ctx.settings().current().alertWebhook());
            boolean hasToken = now.isPresent() && ctx.secrets().has(AlertWebhook.TOKEN_KEY);
            if (hasToken) {
                AlertWebhook.tokenInClear(now.get()).ifPresent(w -> o.error("gpuforge alert webhook: warning: " + w));
            }
            String answer = null;
            if (test) {
                if (now.isEmpty()) {
                    o.error("gpuforge alert webhook: no webhook is set (--url URL)");
                    return 2;
                }
                try {
                    answer = ctx.webhook().test(now.get());
                } catch (IOException e) {
                    o.error("gpuforge alert webhook: the test post failed: " + e.getMessage());
                    return 1;
                }
            }
            if (json.enabled()) {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("url", now.map(AlertWebhook::redacted).orElse(null));
                m.put("token", hasToken);
                m.put("test", answer);
                o.json(m);
            } else {
                o.line(now.map(u -> "alerts are posted to " + AlertWebhook.redacted(u) + (hasToken ? " with a bearer"
                        + " token" : ""))
                        .orElse("alerts are posted to no webhook"));
                if (answer != null) {
                    o.line("test: " + answer);
                }
            }
            return 0;
        }
    }
}
