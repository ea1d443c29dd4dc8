package io.gpuforge.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gpuforge.app.AppPaths;
import io.gpuforge.cli.common.CliOutput;
import io.gpuforge.testing.WebhookReceiver;
import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Alert rules and the webhook from a shell: what a server's admin sets for gpuforge serve with no window. */
class AlertRulesCliTest {

    @TempDir
    Path home;
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String stdin, String... args) {
        out.getBuffer().setLength(0);
        err.getBuffer().setLength(0);
        return GpuForgeCli.run(args, AppPaths.underHome(home), new CliOutput(new PrintWriter(out), new PrintWriter(err)),
                new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)),
                Map.of("GPUFORGE_VAULT_PASSPHRASE", "passphrase of the test"));
    }

    @Test
    void rulesAreAddedListedAndRemoved() throws Exception {
        assertThat(run("", "alert", "add", "--temperature", "85", "--for", "30")).as(err.toString()).isZero();
        assertThat(out.toString()).startsWith("added alert rule 1: ");
        assertThat(run("", "alert", "add", "--source-lost", "--gpu", "demo:lab/pve-3090/0000:01:00.0")).isZero();
        assertThat(run("", "alert", "list", "--json")).isZero();
        JsonNode rules = new ObjectMapper().readTree(out.toString()).get("rules");
        assertThat(rules).hasSize(2);
        assertThat(rules.get(0).get("kind").asText()).isEqualTo("temperature");
        assertThat(rules.get(0).get("threshold").asDouble()).isEqualTo(85);
        assertThat(rules.get(0).get("forSeconds").asLong()).isEqualTo(30);
        assertThat(rules.get(1).get("gpu").asText()).isEqualTo("demo:lab/pve-3090/0000:01:00.0");
        assertThat(run("", "alert", "add", "--temperature", "400")).isEqualTo(2);
        assertThat(err.toString()).contains("1 to 150 °C");
        assertThat(run("", "alert", "add", "--temperature", "80", "--throttling")).isEqualTo(2);
        assertThat(run("", "alert", "remove", "1")).isZero();
        assertThat(run("", "alert", "remove", "1")).isEqualTo(2);
        assertThat(run("", "alert", "list")).isZero();
        assertThat(out.toString()).doesNotContain("temperature").contains("2  source lost on demo:lab/pve-3090");
    }

    @Test
    void theWebhookIsSetWithItsTokenTestedAndTurnedOff() throws Exception {
        try (WebhookReceiver receiver = new WebhookReceiver()) {
            assertThat(run("", "alert", "webhook", "--url", "ftp://x/y")).isEqualTo(2);
            assertThat(run("tok-123\n", "alert", "webhook", "--url", receiver.url("/hook"), "--token-stdin",
                    "--test")).as(err.toString()).isZero();
            // the URL's path may be its secret (Slack-style hooks): shown as scheme and host only
            assertThat(out.toString()).contains("alerts are posted to " + receiver.url("/…")
                    + " with a bearer token").contains("test: " + receiver.url("/…") + " answered HTTP 200")
                    .doesNotContain("/hook");
            assertThat(receiver.posts()).singleElement().satisfies(p -> assertThat(p.authorization())
                    .isEqualTo("Bearer tok-123"));
            assertThat(run("", "alert", "webhook", "--json")).isZero();
            assertThat(new ObjectMapper().readTree(out.toString()).get("token").asBoolean()).isTrue();
            assertThat(err.toString()).as("http on loopback: no warning").doesNotContain("warning");
            assertThat(run("", "alert", "webhook", "--url", "http://hooks.example/services/T0/B0/XXXX")).isZero();
            assertThat(err.toString()).contains("warning: the bearer token goes over plain http to"
                    + " http://hooks.example/…").contains("use an https URL").doesNotContain("XXXX");
            assertThat(run("", "alert", "webhook", "--url", "https://hooks.example/services/T0/B0/XXXX")).isZero();
            assertThat(err.toString()).doesNotContain("warning");
            assertThat(run("", "alert", "webhook", "--off")).isZero();
            assertThat(out.toString()).contains("alerts are posted to no webhook");
            receiver.answer(() -> 500);
            assertThat(run("", "alert", "webhook", "--url", receiver.url("/hook"), "--test")).isEqualTo(1);
            assertThat(err.toString()).contains("the test post failed").contains("HTTP 500");
            assertThat(run("", "alert", "webhook", "--json")).isZero();
            assertThat(new ObjectMapper().readTree(out.toString()).get("token").asBoolean()).as("the token went with"
                    + " --off").isFalse();
        }
    }
}
