package io.gpuforge.hypervisor.proxmox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpuforge.demo.PveSimulator;
import io.gpuforge.demo.SimCluster;
import io.gpuforge.testing.ScriptedHttpsServer;
import io.gpuforge.testing.ScriptedHttpsServer.Reply;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * A pinned server (or a proxy holding its certificate) that answers with a redirect, https to http above all,
 * must not get the login, the ticket or the CSRF token sent anywhere else: the client refuses any 3xx and names
 * where it pointed, and the plain-text listener it pointed to receives nothing.
 */
class PveRedirectTest {

    /** A plain TCP listener on loopback that counts the connections and bytes it receives. */
    private static final class Listener implements AutoCloseable {
        final ServerSocket socket;
        final AtomicInteger connections = new AtomicInteger();
        final AtomicLong bytes = new AtomicLong();

        Listener() throws IOException {
            socket = new ServerSocket(0, 10, InetAddress.getLoopbackAddress());
            Thread t = new Thread(this::accept, "plain-listener");
            t.setDaemon(true);
            t.start();
        }

        private void accept() {
            while (!socket.isClosed()) {
                try (Socket s = socket.accept(); InputStream in = s.getInputStream()) {
                    connections.incrementAndGet();
                    s.setSoTimeout(500);
                    byte[] buf = new byte[4096];
                    for (int n; (n = in.read(buf)) > 0; ) {
                        bytes.addAndGet(n);
                    }
                } catch (IOException e) {
                    // closed, or the client stopped sending
                }
            }
        }

        String url(String path) {
            return "http://127.0.0.1:" + socket.getLocalPort() + path;
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }

    private static String pin() throws Exception {
        try (PveSimulator sim = new PveSimulator(SimCluster.demo())) {
            return sim.certificateFingerprint();
        }
    }

    @Test
    void aPasswordLoginRedirectedToPlainHttpSendsNothingThereAndNamesTheLocation() throws Exception {
        String pin = pin();
        try (Listener plain = new Listener();
             ScriptedHttpsServer s = new ScriptedHttpsServer(p -> Reply.redirect(307, plain.url(p)))) {
            PveClient c = new PveClient(s.url(), new PveCredentials.Password("root@pam",
                    "secret-password".toCharArray(), Optional.empty()), Optional.of(pin), PveContract.load(),
                    Duration.ofSeconds(5));

            assertThatThrownBy(() -> c.get("/version", Map.of()))
                    .isInstanceOfSatisfying(PveApiException.class, e -> {
                        assertThat(e.kind()).isEqualTo(PveApiException.Kind.PROTOCOL);
                        assertThat(e.status()).isEqualTo(307);
                        assertThat(e.getMessage()).contains("redirect", plain.url("/api2/json/access/ticket"))
                                .doesNotContain("secret-password");
                    });
            Thread.sleep(200);
            assertThat(plain.connections.get()).as("connections to the plain-text listener").isZero();
            assertThat(plain.bytes.get()).isZero();
            assertThat(s.requests()).as("the login went once, to the pinned server only").isEqualTo(1);
        }
    }

    @Test
    void aTokenRequestRedirectedAnywhereIsNotFollowed() throws Exception {
        String pin = pin();
        for (int status : new int[] {301, 302, 303, 307, 308}) {
            try (Listener plain = new Listener();
                 ScriptedHttpsServer s = new ScriptedHttpsServer(p -> p.endsWith("/version")
                         ? Reply.redirect(status, plain.url("/api2/json/version"))
                         : Reply.of(200, "{\"data\":{}}"))) {
                PveClient c = new PveClient(s.url(), new PveCredentials.Token("root@pam!t", "token-secret"),
                        Optional.of(pin), PveContract.load(), Duration.ofSeconds(5));

                assertThatThrownBy(() -> c.get("/version", Map.of()))
                        .isInstanceOfSatisfying(PveApiException.class, e -> {
                            assertThat(e.status()).isEqualTo(status);
                            assertThat(e.getMessage()).contains(plain.url("/api2/json/version"));
                        });
                Thread.sleep(100);
                assertThat(plain.connections.get()).as("connections after a %d", status).isZero();
            }
        }
    }

    @Test
    void aRedirectWithinThePinnedServerIsRefusedToo() throws Exception {
        String pin = pin();
        try (ScriptedHttpsServer s = new ScriptedHttpsServer(p -> p.endsWith("/version")
                ? Reply.redirect(302, "/api2/json/cluster/resources")
                : Reply.of(200, "{\"data\":[]}"))) {
            PveClient c = new PveClient(s.url(), new PveCredentials.Token("root@pam!t", "x"), Optional.of(pin),
                    PveContract.load(), Duration.ofSeconds(5));

            assertThatThrownBy(() -> c.get("/version", Map.of()))
                    .isInstanceOf(PveApiException.class).hasMessageContaining("/api2/json/cluster/resources");
            assertThat(s.requests()).isEqualTo(1);
        }
    }
}
