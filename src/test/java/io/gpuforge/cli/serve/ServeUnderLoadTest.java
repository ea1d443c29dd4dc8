package io.gpuforge.cli.serve;

import static io.gpuforge.cli.serve.ServeWaits.freePort;
import static io.gpuforge.cli.serve.ServeWaits.waitFor;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.app.AppContext;
import io.gpuforge.app.settings.LanguageChoice;
import io.gpuforge.app.settings.ThemeChoice;
import io.gpuforge.testing.CliProcess;
import io.gpuforge.testing.TestContexts;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code gpuforge serve --prometheus} in its own process under hostile clients on loopback: 1,000 connections held
 * half open (half send nothing, half stop in the middle of their headers), 100 cut mid-header and 100 gone before
 * their answer. The process's threads and sockets stay bounded while they are held, the server closes every held
 * connection itself, a scrape then answers within a second, threads and sockets come back to their level and
 * nothing is printed on stderr (no stack traces). The figures go to {@code target/bench/serve-load.json}; threads and
 * sockets are counted in {@code /proc}.
 */
@EnabledOnOs(OS.LINUX)
class ServeUnderLoadTest {

    private static final int HELD = 1_000;
    private static final String HALF = "GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: slow";

    @TempDir
    Path dir;

    @Test
    void aThousandHalfOpenConnectionsAreBoundedAndAScrapeStillAnswers() throws Exception {
        Path appHome = dir.resolve("gpuforge");
        int port = freePort();
        try (AppContext ctx = TestContexts.create(appHome, dir.resolve("no-sysroot"), ThemeChoice.LIGHT,
                LanguageChoice.ENGLISH)) {
            ctx.connections().addDemo("Demo lab");
        }
        CliProcess cli = new CliProcess(dir.resolve("home"), appHome);
        try (CliProcess.Running serve = cli.start(List.of(), "serve", "--prometheus", "127.0.0.1:" + port)) {
            waitFor(() -> scrape(port).contains("gpuforge_gpu_temperature_celsius{"), serve::err);
            long pid = serve.pid();
            // the level: after a few scrapes, as Prometheus would keep it
            for (int i = 0; i < 5; i++) {
                scrape(port);
            }
            Thread.sleep(500);
            int threads0 = threads(pid);
            int sockets0 = sockets(pid);

            // cut mid-header, and gone before the answer (reset): nothing of theirs stays, nothing is printed
            for (int i = 0; i < 100; i++) {
                try (Socket s = new Socket("127.0.0.1", port)) {
                    s.getOutputStream().write(HALF.getBytes(StandardCharsets.US_ASCII));
                }
                try (Socket s = new Socket("127.0.0.1", port)) {
                    s.setSoLinger(true, 0);
                    s.getOutputStream().write("GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
                            .getBytes(StandardCharsets.US_ASCII));
                }
            }

            // 1,000 held half open
            long start = System.nanoTime();
            List<SocketChannel> held = new ArrayList<>();
            int refused = 0;
            try (Selector selector = Selector.open()) {
                for (int i = 0; i < HELD; i++) {
                    try {
                        SocketChannel c = SocketChannel.open();
                        c.socket().connect(new InetSocketAddress("127.0.0.1", port), 2_000);
                        if (i % 2 == 1) {
                            c.write(ByteBuffer.wrap(HALF.getBytes(StandardCharsets.US_ASCII)));
                        }
                        c.configureBlocking(false);
                        c.register(selector, SelectionKey.OP_READ);
                        held.add(c);
                    } catch (IOException e) {
                        refused++;
                    }
                }
                double openSeconds = (System.nanoTime() - start) / 1e9;
                int peakThreads = threads(pid);
                int peakSockets = sockets(pid);
                // a scrape while they are held: recorded, not required (the slots may all be taken)
                long t = System.nanoTime();
                String during = scrapeOrWhy(port);
                double duringMs = (System.nanoTime() - t) / 1e6;
                // every held connection ends from the server's side (end of stream), none answered
                int open = held.size();
                int answered = 0;
                ByteBuffer buf = ByteBuffer.allocate(4096);
                long until = System.nanoTime() + Duration.ofSeconds(120).toNanos();
                while (open > 0 && System.nanoTime() < until) {
                    peakThreads = Math.max(peakThreads, threads(pid));
                    peakSockets = Math.max(peakSockets, sockets(pid));
                    selector.select(200);
                    for (SelectionKey k : selector.selectedKeys()) {
                        SocketChannel c = (SocketChannel) k.channel();
                        int n;
                        try {
                            n = c.read(buf.clear());
                        } catch (IOException e) {
                            n = -1;
                        }
                        if (n > 0) {
                            answered++;
                        }
                        if (n < 0) {
                            k.cancel();
                            c.close();
                            open--;
                        }
                    }
                    selector.selectedKeys().clear();
                }
                double closedSeconds = (System.nanoTime() - start) / 1e9;
                for (SocketChannel c : held) {
                    c.close();
                }
                t = System.nanoTime();
                String after = scrape(port);
                double afterMs = (System.nanoTime() - t) / 1e6;
                waitFor(() -> threads(pid) <= threads0 + 2 && sockets(pid) <= sockets0, () -> "threads " + threads(pid)
                        + " (level " + threads0 + "), sockets " + sockets(pid) + " (level " + sockets0 + ")");
                int threadsEnd = threads(pid);
                int socketsEnd = sockets(pid);
                bench(String.format(java.util.Locale.ROOT, "{\"held\": %d, \"refused_at_connect\": %d,"
                        + " \"open_seconds\": %.2f, \"threads_level\": %d, \"threads_peak\": %d, \"threads_end\": %d,"
                        + " \"sockets_level\": %d, \"sockets_peak\": %d, \"sockets_end\": %d,"
                        + " \"all_closed_by_server_seconds\": %.2f, \"scrape_during\": \"%s\", \"scrape_during_ms\":"
                        + " %.1f, \"scrape_after_ms\": %.1f}\n", held.size(), refused, openSeconds, threads0,
                        peakThreads, threadsEnd, sockets0, peakSockets, socketsEnd, closedSeconds,
                        during.startsWith("#") ? "answered" : during, duringMs, afterMs));

                assertThat(open).as("held connections the server never closed").isZero();
                assertThat(answered).as("held connections that got an answer to half a request").isZero();
                assertThat(peakThreads - threads0).as("threads added while 1,000 connections were held")
                        .isLessThanOrEqualTo(MAX_THREADS_ADDED);
                assertThat(peakSockets - sockets0).as("sockets added while 1,000 connections were held")
                        .isLessThanOrEqualTo(MAX_SOCKETS_ADDED);
                assertThat(after).contains("gpuforge_gpu_temperature_celsius{");
                assertThat(afterMs).as("a scrape after the held connections went").isLessThan(1_000);
            }
            CliProcess.Result end = serve.terminate();
            assertThat(end.exit()).as(end.err()).isZero();
            assertThat(end.err()).as("stderr of serve under load").doesNotContain("\tat ").doesNotContain("Exception")
                    .doesNotContain("Broken pipe");
        }
    }

    /** Bounds the test holds the server to: its pool and a few more; its connection cap and a few more. */
    private static final int MAX_THREADS_ADDED = 20;
    private static final int MAX_SOCKETS_ADDED = 140;

    private static void bench(String json) throws IOException {
        Path out = Path.of("target", "bench");
        Files.createDirectories(out);
        Files.writeString(out.resolve("serve-load.json"), json);
    }

    private static int threads(long pid) throws IOException {
        try (Stream<Path> s = Files.list(Path.of("/proc", Long.toString(pid), "task"))) {
            return (int) s.count();
        }
    }

    private static int sockets(long pid) throws IOException {
        int n = 0;
        try (Stream<Path> s = Files.list(Path.of("/proc", Long.toString(pid), "fd"))) {
            for (Path fd : (Iterable<Path>) s::iterator) {
                try {
                    if (Files.readSymbolicLink(fd).toString().startsWith("socket:")) {
                        n++;
                    }
                } catch (IOException e) {
                    // closed meanwhile
                }
            }
        }
        return n;
    }

    /** GET /metrics over a fresh connection, read to its end. */
    private static String scrape(int port) throws IOException {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
            s.setSoTimeout(10_000);
            OutputStream out = s.getOutputStream();
            out.write(("GET /metrics HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            InputStream in = s.getInputStream();
            String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            int body = text.indexOf("\r\n\r\n");
            if (!text.startsWith("HTTP/1.1 200") || body < 0) {
                throw new IOException("not answered: " + text.lines().findFirst().orElse("(nothing)"));
            }
            return text.substring(body + 4);
        }
    }

    private static String scrapeOrWhy(int port) {
        try {
            return scrape(port);
        } catch (IOException e) {
            return e.getClass().getSimpleName() + ": " + String.valueOf(e.getMessage()).replace('"', '\'');
        }
    }
}
