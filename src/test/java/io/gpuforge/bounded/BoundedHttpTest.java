package io.gpuforge.bounded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpuforge.testing.FaultyHttpServer;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Every fault of a server ends within the read's deadline in the error that names it: a trickled or stalled body at
 * the deadline with the bytes that had arrived, too much as soon as the limit is passed (or announced), a half body
 * as the connection's own error. The deadline is checked with a generous margin: what is asserted is that the call
 * comes back, where Java's own request timeout would have let it hang.
 */
class BoundedHttpTest {

    private static final ReadLimits LIMITS = new ReadLimits(Duration.ofSeconds(2), 64 * 1024);
    private static final long MARGIN_MS = 4000;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private FaultyHttpServer server;

    @BeforeEach
    void start() throws IOException {
        server = new FaultyHttpServer();
        server.body("gpu_temperature_celsius{gpu=\"0\"} 42\n");
    }

    @AfterEach
    void stop() throws IOException {
        server.close();
    }

    private BoundedHttp.Answer get() throws Exception {
        return BoundedHttp.send(http, HttpRequest.newBuilder(URI.create(server.url("/metrics")))
                .timeout(Duration.ofSeconds(1)).GET().build(), "the exporter at " + server.url("/metrics"), LIMITS);
    }

    private BoundedReadException fails(FaultyHttpServer.Mode mode, BoundedReadException.Kind kind) {
        server.mode(mode);
        long t0 = System.nanoTime();
        Throwable t = org.assertj.core.api.Assertions.catchThrowable(this::get);
        long ms = (System.nanoTime() - t0) / 1_000_000;
        assertThat(t).as(mode.name()).isInstanceOf(BoundedReadException.class);
        BoundedReadException e = (BoundedReadException) t;
        assertThat(e.kind()).as(mode.name()).isEqualTo(kind);
        assertThat(e.source()).isEqualTo("the exporter at " + server.url("/metrics"));
        assertThat(ms).as(mode + " came back within the deadline (2 s) and a margin").isLessThan(2000 + MARGIN_MS);
        return e;
    }

    @Test
    void aGoodAnswerIsReadWhole() throws Exception {
        BoundedHttp.Answer a = get();
        assertThat(a.status()).isEqualTo(200);
        assertThat(a.text()).isEqualTo("gpu_temperature_celsius{gpu=\"0\"} 42\n");
    }

    @Test
    void aTrickledBodyEndsAtTheDeadlineWithWhatHadArrived() {
        BoundedReadException e = fails(FaultyHttpServer.Mode.TRICKLE, BoundedReadException.Kind.DEADLINE);
        assertThat(e.read()).as("a byte a second for 2 s").isBetween(1L, 4L);
        assertThat(e.getMessage()).startsWith("the exporter at http://127.0.0.1:")
                .contains("did not finish its answer within 2 s (").contains(" had arrived)");
    }

    @Test
    void aBodyThatStopsHalfWayOrHeadersThatNeverComeEndAtTheDeadline() {
        BoundedReadException body = fails(FaultyHttpServer.Mode.STALL_BODY, BoundedReadException.Kind.DEADLINE);
        assertThat(body.read()).isEqualTo("gpu_temperature_celsius{gpu=\"0\"} 42\n".length() / 2);
        BoundedReadException headers = fails(FaultyHttpServer.Mode.STALL_HEADERS, BoundedReadException.Kind.DEADLINE);
        assertThat(headers.read()).isZero();
    }

    @Test
    void tooMuchIsCutOffAtTheLimitOrRefusedWhenAnnounced() {
        BoundedReadException huge = fails(FaultyHttpServer.Mode.HUGE, BoundedReadException.Kind.TOO_LARGE);
        assertThat(huge.read()).isGreaterThan(LIMITS.maxBytes()).isLessThan(LIMITS.maxBytes() + 1024 * 1024);
        assertThat(huge.getMessage()).contains("sent more than 64 KiB");
        BoundedReadException announced = fails(FaultyHttpServer.Mode.HUGE_ANNOUNCED,
                BoundedReadException.Kind.TOO_LARGE);
        assertThat(announced.read()).as("refused by its Content-Length, before any byte").isZero();
    }

    @Test
    void aConnectionClosedHalfWayIsTheConnectionsOwnError() {
        server.mode(FaultyHttpServer.Mode.HALF_BODY_CLOSE);
        assertThatThrownBy(this::get).isInstanceOf(IOException.class).isNotInstanceOf(BoundedReadException.class);
    }
}
