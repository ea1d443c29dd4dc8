package io.gpuforge.app.monitor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.gpuforge.domain.telemetry.AlertEvent;
import io.gpuforge.domain.telemetry.AlertRule;
import io.gpuforge.domain.telemetry.GpuId;
import io.gpuforge.testing.WebhookReceiver;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * A webhook's URL carries its secret (Slack-style paths, {@code ?token=}): its retries and failures are logged, and
 * its test answered, with the scheme and host only (issue 59, finding 2).
 */
class AlertWebhookSecretsTest {

    private static final String SECRET_PATH = "/services/T000/B000/HOOKSECRET123?token=QSECRET";

    @Test
    void theLogAndTheTestsAnswerNeverHoldTheUrlsSecret() throws Exception {
        Logger log = (Logger) LoggerFactory.getLogger(AlertWebhook.class);
        ListAppender<ILoggingEvent> seen = new ListAppender<>();
        seen.start();
        log.addAppender(seen);
        Level level = log.getLevel();
        log.setLevel(Level.INFO); // the retries are logged at INFO
        ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
        try (WebhookReceiver receiver = new WebhookReceiver()) {
            receiver.answer(() -> 500);
            String url = receiver.url(SECRET_PATH);
            AlertWebhook w = new AlertWebhook(() -> Optional.of(url), Optional::empty, timer, Clock.systemUTC(),
                    "lab-host", List.of(Duration.ofMillis(20), Duration.ofMillis(40)));
            w.accept(new AlertEvent(AlertRule.of(Optional.empty(), AlertRule.Kind.TEMPERATURE, 80, Duration.ZERO)
                    .withId(1), new GpuId("demo:lab/pve-3090", "0000:01:00.0"), "RTX 3090", AlertEvent.State.FIRED,
                    Instant.now().toEpochMilli(), OptionalDouble.of(85)));
            for (int i = 0; i < 200 && w.failed() == 0; i++) {
                Thread.sleep(25);
            }
            assertThat(w.failed()).isEqualTo(1);
            assertThatThrownBy(() -> w.test(url)).satisfies(e -> assertThat(e.getMessage())
                    .contains("http://127.0.0.1:").contains("/… answered HTTP 500").doesNotContain("HOOKSECRET123")
                    .doesNotContain("QSECRET"));
        } finally {
            timer.shutdownNow();
            log.detachAppender(seen);
            log.setLevel(level);
        }
        List<String> lines = seen.list.stream().map(ILoggingEvent::getFormattedMessage).toList();
        assertThat(lines).as("the retries and the failure were logged").hasSizeGreaterThanOrEqualTo(3)
                .allSatisfy(l -> assertThat(l).contains("http://127.0.0.1:").doesNotContain("HOOKSECRET123")
                        .doesNotContain("QSECRET").doesNotContain("T000"));
    }

    @Test
    void aRedactedUrlKeepsItsSchemeAndHostOnly() {
        assertThat(AlertWebhook.redacted("https://hooks.slack.com/services/T0/B0/XXXX")).isEqualTo(
                "https://hooks.slack.com/…");
        assertThat(AlertWebhook.redacted("https://user:pw@ntfy.example.org:8443/gpus?auth=abc"))
                .isEqualTo("https://ntfy.example.org:8443/…");
        assertThat(AlertWebhook.redacted("http://hooks.local/")).isEqualTo("http://hooks.local");
        assertThat(AlertWebhook.redacted("not a url at all")).isEqualTo("(a webhook URL)");
    }
}
