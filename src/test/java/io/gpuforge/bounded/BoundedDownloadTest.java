package io.gpuforge.bounded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.sun.net.httpserver.HttpServer;
import io.gpuforge.testing.FaultyHttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A cloud image streamed to disk from an image server on loopback that publishes SHA256SUMS beside it: checked
 * against it (or the template's sum), refused when it does not match, too large, stalled or cancelled, and in every
 * failure neither the image nor its part file is left behind.
 */
class BoundedDownloadTest {

    @TempDir
    Path dir;

    private final byte[] image = new byte[3 << 20];
    private volatile String sums;
    private volatile boolean slow;
    private HttpServer server;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @BeforeEach
    void start() throws Exception {
        new Random(42).nextBytes(image);
        sums = "0000000000000000000000000000000000000000000000000000000000000000  other.img\n"
                + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(image)) + " *jammy.img\n";
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 4);
        server.createContext("/images/jammy.img", x -> {
            x.sendResponseHeaders(200, image.length);
            try (OutputStream o = x.getResponseBody()) {
                for (int off = 0; off < image.length; off += 64 * 1024) {
                    o.write(image, off, Math.min(64 * 1024, image.length - off));
                    if (slow) {
                        o.flush();
                        Thread.sleep(50);
                    }
                }
            } catch (InterruptedException | IOException e) {
                // the client went away
            }
        });
        server.createContext("/images/SHA256SUMS", x -> {
            byte[] b = sums.getBytes(StandardCharsets.UTF_8);
            x.sendResponseHeaders(200, b.length);
            try (OutputStream o = x.getResponseBody()) {
                o.write(b);
            }
        });
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private URI url() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/images/jammy.img");
    }

    private void nothingLeft() throws IOException {
        try (var files = Files.list(dir)) {
            assertThat(files.toList()).as("no image and no part file").isEmpty();
        }
    }

    @Test
    void anImageIsStreamedToDiskAndCheckedAgainstThePublishedSums() throws Exception {
        List<Long> seen = new CopyOnWriteArrayList<>();
        OptionalLong[] total = new OptionalLong[1];
        BoundedDownload.Result r = BoundedDownload.download(http, url(), dir.resolve("jammy.img"), 1L << 30,
                Duration.ofSeconds(5), Optional.empty(), (done, all) -> {
                    seen.add(done);
                    total[0] = all;
                }, () -> false);
        assertThat(Files.readAllBytes(dir.resolve("jammy.img"))).isEqualTo(image);
        assertThat(r.bytes()).isEqualTo(image.length);
        assertThat(r.checkedAgainst()).contains("the server's SHA256SUMS");
        assertThat(seen).last().isEqualTo((long) image.length);
        assertThat(total[0]).hasValue(image.length);
        assertThat(Files.exists(dir.resolve("jammy.img.part"))).isFalse();
    }

    @Test
    void aSumThatDoesNotMatchLeavesNothing() throws Exception {
        sums = "1111111111111111111111111111111111111111111111111111111111111111  jammy.img\n";
        Throwable t = catchThrowable(() -> BoundedDownload.download(http, url(), dir.resolve("jammy.img"), 1L << 30,
                Duration.ofSeconds(5), Optional.empty(), (d, a) -> { }, () -> false));
        assertThat(t).isInstanceOf(IOException.class).hasMessageContaining("not 1111111111")
                .hasMessageContaining("as the server's SHA256SUMS says");
        nothingLeft();
        Throwable template = catchThrowable(() -> BoundedDownload.download(http, url(), dir.resolve("jammy.img"),
                1L << 30, Duration.ofSeconds(5), Optional.of("2222222222222222222222222222222222222222222222222222222222222222"),
                (d, a) -> { }, () -> false));
        assertThat(template).hasMessageContaining("as the template's SHA-256 says");
        nothingLeft();
    }

    @Test
    void tooLargeCancelledOrStalledLeavesNothing() throws Exception {
        Throwable big = catchThrowable(() -> BoundedDownload.download(http, url(), dir.resolve("jammy.img"), 1 << 20,
                Duration.ofSeconds(5), Optional.empty(), (d, a) -> { }, () -> false));
        assertThat(big).isInstanceOf(BoundedReadException.class);
        assertThat(((BoundedReadException) big).kind()).isEqualTo(BoundedReadException.Kind.TOO_LARGE);
        nothingLeft();

        slow = true;
        AtomicBoolean cancel = new AtomicBoolean();
        Throwable cancelled = catchThrowable(() -> BoundedDownload.download(http, url(), dir.resolve("jammy.img"),
                1L << 30, Duration.ofSeconds(5), Optional.empty(), (d, a) -> cancel.set(d > 0), cancel::get));
        assertThat(cancelled).isInstanceOf(BoundedDownload.CancelledException.class);
        nothingLeft();

        try (FaultyHttpServer stalls = new FaultyHttpServer()) {
            stalls.body("x".repeat(10_000));
            stalls.mode(FaultyHttpServer.Mode.STALL_BODY);
            long t0 = System.nanoTime();
            Throwable stalled = catchThrowable(() -> BoundedDownload.download(http, URI.create(stalls.url(
                    "/images/jammy.img")), dir.resolve("jammy.img"), 1L << 30, Duration.ofSeconds(1),
                    Optional.of("3333333333333333333333333333333333333333333333333333333333333333"), (d, a) -> { },
                    () -> false));
            assertThat(stalled).isInstanceOf(BoundedReadException.class).hasMessageContaining("sent nothing for 1 s");
            assertThat((System.nanoTime() - t0) / 1_000_000).as("given up after the stall and a margin")
                    .isLessThan(6000);
            nothingLeft();
        }
    }
}
