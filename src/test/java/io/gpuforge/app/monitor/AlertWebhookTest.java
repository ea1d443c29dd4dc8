package io.gpuforge.app.monitor;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gpuforge.domain.telemetry.AlertEvent;
import io.gpuforge.domain.telemetry.AlertRule;
import io.gpuforge.domain.telemetry.GpuId;
import io.gpuforge.testing.WebhookReceiver;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Alerts posted to a webhook on loopback: the body, the token, retries with backoff, the rate limit. */
class AlertWebhookTest {

    private static final GpuId GPU = new GpuId("demo:lab/pve-3090", "0000:01:00.0");
    private static final AlertRule HOT = AlertRule.of(Optional.empty(), AlertRule.Kind.TEMPERATURE, 80, Duration.ZERO)
            .withId(7);
    private final ObjectMapper json = new ObjectMapper();
    private final AtomicLong now = new AtomicLong(Instant.parse("2026-12-05T22:00:00Z").toEpochMilli());
    private final Clock clock = new Clock() {
        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return Instant.ofEpochMilli(now.get());
        }
    };
    private WebhookReceiver receiver;
    private ScheduledExecutorService timer;

    @BeforeEach
    void start() throws Exception {
        receiver = new WebhookReceiver();
        timer = Executors.newSingleThreadScheduledExecutor();
    }

    @AfterEach
    void stop() {
        timer.shutdownNow();
        receiver.close();
    }

    private AlertWebhook webhook(Optional<String> token) {
        return new AlertWebhook(() -> Optional.of(receiver.url("/hooks/gpu")), () -> token.map(String::toCharArray),
                timer, clock, "lab-host", List.of(Duration.ofMillis(50), Duration.ofMillis(100), Duration.ofMillis(200)));
    }

    private static AlertEvent fired(double temp) {
        return new AlertEvent(HOT, GPU, "RTX 3090", AlertEvent.State.FIRED, Instant.parse("2026-12-05T22:00:00Z")
                .toEpochMilli(), OptionalDouble.of(temp));
    }

    private static void waitFor(java.util.function.BooleanSupplier c) throws InterruptedException {
        io.gpuforge.testing.Eventually.until("the webhook's awaited state", Duration.ofSeconds(20), c);
    }

    @Test
    void aFiredAlertIsPostedAsJsonWithItsBearerToken() throws Exception {
        AlertWebhook w = webhook(Optional.of("s3cret-token"));
        w.accept(fired(91.5));
        waitFor(() -> w.delivered() == 1);
        WebhookReceiver.Post p = receiver.posts().get(0);
        assertThat(p.path()).isEqualTo("/hooks/gpu");
        assertThat(p.contentType()).isEqualTo("application/json");
        assertThat(p.authorization()).isEqualTo("Bearer s3cret-token");
        JsonNode body = json.readTree(p.body());
        assertThat(body.get("text").asText()).isEqualTo("GPUForge on lab-host: " + fired(91.5).describe())
                .contains("RTX 3090 (demo:lab/pve-3090/0000:01:00.0)", "80 °C", "(now 91.5)");
        assertThat(body.get("state").asText()).isEqualTo("fired");
        assertThat(body.get("gpu").asText()).isEqualTo("demo:lab/pve-3090/0000:01:00.0");
        assertThat(body.get("value").asDouble()).isEqualTo(91.5);
        assertThat(body.get("at").asText()).isEqualTo("2026-12-05T22:00:00Z");
        assertThat(body.get("suppressed").asInt()).isZero();
        assertThat(webhook(Optional.empty()).test(receiver.url("/hooks/gpu"))).contains("HTTP 200");
        assertThat(receiver.posts().get(1).authorization()).as("no token saved: no header").isNull();
    }

    @Test
    void aReceiverThatFailsIsTriedAgainWithBackoffAndA4xxIsNot() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        receiver.answer(() -> calls.incrementAndGet() <= 2 ? 503 : 200);
        AlertWebhook w = webhook(Optional.empty());
        w.accept(fired(85));
        waitFor(() -> w.delivered() == 1);
        assertThat(receiver.posts()).as("503, 503, then 200").hasSize(3);
        assertThat(receiver.posts().get(0).body()).isEqualTo(receiver.posts().get(2).body());

        receiver.answer(() -> 404);
        w.accept(fired(86));
        waitFor(() -> w.failed() == 1);
        Thread.sleep(400); // longer than every retry's wait: none comes
        assertThat(receiver.posts()).as("a 404 is not tried again").hasSize(4);

        receiver.answer(() -> 500);
        w.accept(fired(87));
        waitFor(() -> w.failed() == 2);
        assertThat(receiver.posts()).as("1 + 3 retries, then given up").hasSize(8);
    }

    @Test
    void overTheRateLimitAlertsAreCountedAndSaidInTheNextPost() throws Exception {
        AlertWebhook w = webhook(Optional.empty());
        for (int i = 0; i < AlertWebhook.PER_MINUTE + 8; i++) {
            w.accept(fired(80 + i));
        }
        waitFor(() -> w.delivered() == AlertWebhook.PER_MINUTE);
        assertThat(w.suppressed()).isEqualTo(8);
        now.addAndGet(61_000);
        w.accept(fired(99));
        waitFor(() -> w.delivered() == AlertWebhook.PER_MINUTE + 1);
        JsonNode last = json.readTree(receiver.posts().stream().filter(p -> p.body().contains("99.0")).findFirst()
                .orElseThrow().body());
        assertThat(last.get("suppressed").asInt()).isEqualTo(8);
        assertThat(last.get("text").asText()).endsWith("(and 8 more alerts over the rate limit before it)");
    }

    @Test
    void aReceiverThatNeverAnswersHoldsABoundedNumberOfAlertsAndPostsGoOutSideBySide() throws Exception {
        ScheduledExecutorService posts = AlertWebhook.postThreads();
        AtomicInteger connected = new AtomicInteger();
        List<java.net.Socket> held = new java.util.concurrent.CopyOnWriteArrayList<>();
        try (java.net.ServerSocket hangs = new java.net.ServerSocket(0, 200,
                java.net.InetAddress.getLoopbackAddress())) {
            Thread acceptor = new Thread(() -> {
                try {
                    while (true) {
                        held.add(hangs.accept()); // read nothing, answer nothing
                        connected.incrementAndGet();
                    }
                } catch (java.io.IOException e) {
                    // closed
                }
            });
            acceptor.setDaemon(true);
            acceptor.start();
            AlertWebhook w = new AlertWebhook(() -> Optional.of("http://127.0.0.1:" + hangs.getLocalPort() + "/h"),
                    Optional::empty, posts, clock, "lab-host", List.of(Duration.ofMillis(10)), Duration.ofSeconds(60));
            int alerts = AlertWebhook.MAX_PENDING + 24;
            for (int i = 0; i < alerts; i++) {
                now.addAndGet(61_000); // under the rate limit: one a minute
                w.accept(fired(80 + i));
            }
            assertThat(w.pending()).as("alerts on their way to a receiver that hangs")
                    .isEqualTo(AlertWebhook.MAX_PENDING);
            assertThat(w.dropped()).isEqualTo(24);
            // side by side: one after the other, the fourth would connect only after three 60-s deadlines
            waitFor(() -> connected.get() >= AlertWebhook.POSTS);
            assertThat(w.delivered()).as("none can be: the receiver answers nothing").isZero();
            // the receiver goes away: every post and its retry fail, nothing stays on its way
            hangs.close();
            for (java.net.Socket s : held) {
                s.close();
            }
            waitFor(() -> w.pending() == 0);
            assertThat(w.failed()).isEqualTo(AlertWebhook.MAX_PENDING);
        } finally {
            posts.shutdownNow();
            for (java.net.Socket s : held) {
                s.close();
            }
        }
    }
}
