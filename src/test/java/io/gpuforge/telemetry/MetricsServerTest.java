package io.gpuforge.telemetry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpuforge.domain.telemetry.GpuId;
import io.gpuforge.domain.telemetry.GpuMetric;
import io.gpuforge.domain.telemetry.GpuSample;
import io.gpuforge.domain.telemetry.SourceKind;
import io.gpuforge.testing.Eventually;
import io.gpuforge.testing.Tools;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.bouncycastle.crypto.generators.OpenBSDBCrypt;

/**
 * The endpoint's guard: a web configuration file in exporter-toolkit's format (a certificate made by openssl, a
 * bcrypt hash in htpasswd's {@code $2y$} form) gives TLS and basic auth; a wrong password or none is refused; a
 * non-loopback address without both is refused before anything listens; unknown keys are named, not ignored.
 */
class MetricsServerTest {

    @TempDir
    Path dir;

    private final GpuMetricsCollector collector = new GpuMetricsCollector(() -> List.of(GpuSample.builder(
            new GpuId("local", "GPU-1"), 5, SourceKind.NVML).name("RTX 4090").set(GpuMetric.TEMPERATURE_C, 61)
            .build()), Map::of);

    @Test
    void tlsAndBasicAuthFromAWebConfigFile() throws Exception {
        Tools.require("openssl", "openssl");
        Process p = new ProcessBuilder("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout",
                dir.resolve("key.pem").toString(), "-out", dir.resolve("cert.pem").toString(), "-days", "1", "-subj",
                "/CN=localhost").redirectErrorStream(true).start();
        String made = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor()).as(made).isZero();
        String hash = htpasswd("s3cret", 10);
        Path web = Files.writeString(dir.resolve("web.yml"), "tls_server_config:\n  cert_file: cert.pem\n"
                + "  key_file: key.pem\nbasic_auth_users:\n  prometheus: '" + hash + "'\n");
        WebConfig config = WebConfig.read(web);
        assertThat(config.tls()).isTrue();
        assertThat(config.basicAuth()).isTrue();
        try (MetricsServer s = MetricsServer.start("127.0.0.1", 0, config, collector)) {
            String url = "https://localhost:" + s.port() + "/metrics";
            HttpClient http = HttpClient.newBuilder().sslContext(trustAll()).build();
            assertThat(status(http, url, null)).as("no password").isEqualTo(401);
            assertThat(status(http, url, "prometheus:wrong")).as("a wrong password").isEqualTo(401);
            HttpResponse<String> ok = http.send(request(url, "prometheus:s3cret"), HttpResponse.BodyHandlers.ofString());
            assertThat(ok.statusCode()).isEqualTo(200);
            assertThat(ok.body()).contains("gpuforge_gpu_temperature_celsius{gpu=\"local/GPU-1\"} 61.0");
        }
    }

    @Test
    void aChangedWebConfigAndARenewedCertificateAreTakenWithoutARestart() throws Exception {
        Tools.require("openssl", "openssl");
        certificate("first");
        Path web = Files.writeString(dir.resolve("web.yml"), "tls_server_config:\n  cert_file: cert.pem\n"
                + "  key_file: key.pem\nbasic_auth_users:\n  prometheus: '" + hash("s3cret") + "'\n");
        try (MetricsServer s = MetricsServer.start("127.0.0.1", 0, web, collector)) {
            String url = "https://localhost:" + s.port() + "/metrics";
            HttpClient http = HttpClient.newBuilder().sslContext(trustAll()).build();
            assertThat(status(http, url, "prometheus:s3cret")).isEqualTo(200);
            assertThat(servedName(s.port())).contains("O=first");
            // the admin changes the password and renews the certificate, as a running exporter takes them
            certificate("second");
            Files.writeString(web, "tls_server_config:\n  cert_file: cert.pem\n  key_file: key.pem\n"
                    + "basic_auth_users:\n  prometheus: '" + hash("n3w") + "'\n");
            Eventually.untilHolds("the new password and certificate taken", Duration.ofSeconds(30),
                    () -> status(fresh(), url, "prometheus:n3w") == 200 && servedName(s.port()).contains("O=second"));
            assertThat(status(fresh(), url, "prometheus:s3cret")).as("the old password, after its change")
                    .isEqualTo(401);
            // a broken edit is not taken: the last good configuration stays
            Files.writeString(web, "tls_server_config: [not, a, map\n");
            Thread.sleep(1_500);
            assertThat(status(fresh(), url, "prometheus:n3w")).isEqualTo(200);
            assertThat(status(fresh(), url, "prometheus:s3cret")).isEqualTo(401);
        }
    }

    /** A bcrypt hash as {@code htpasswd -nBC COST} writes it ({@code $2y$}). */
    private static String htpasswd(String password, int cost) {
        return OpenBSDBCrypt.generate("2y", password.toCharArray(), salt(), cost);
    }

    private static byte[] salt() {
        byte[] salt = new byte[16];
        new java.security.SecureRandom().nextBytes(salt);
        return salt;
    }

    /** Hashes of every bcrypt prefix are read: $2y$, $2a$, $2b$; one that is no hash matches nothing. */
    @Test
    void bcryptHashesOfEveryPrefixAreChecked() {
        // htpasswd's prefix, Python bcrypt's ($2b$) and jBCrypt's ($2a$)
        for (String hash : List.of(OpenBSDBCrypt.generate("2y", "s3cret".toCharArray(), new byte[16], 4),
                OpenBSDBCrypt.generate("2b", "s3cret".toCharArray(), new byte[16], 4),
                OpenBSDBCrypt.generate("2a", "s3cret".toCharArray(), new byte[16], 4))) {
            assertThat(MetricsServer.Guard.bcrypt("s3cret", hash)).as(hash).isTrue();
            assertThat(MetricsServer.Guard.bcrypt("S3cret", hash)).as(hash).isFalse();
        }
        assertThat(MetricsServer.Guard.bcrypt("s3cret", "not a hash")).isFalse();
    }

    private HttpClient fresh() throws Exception {
        return HttpClient.newBuilder().sslContext(trustAll()).build();
    }

    /** A self-signed certificate for localhost and its key, organisation {@code name},, in dir's cert.pem and key.pem. */
    private void certificate(String name) throws Exception {
        Process p = new ProcessBuilder("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout",
                dir.resolve("key.pem").toString(), "-out", dir.resolve("cert.pem").toString(), "-days", "1", "-subj",
                "/CN=localhost/O=" + name).redirectErrorStream(true).start();
        String made = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor()).as(made).isZero();
    }

    private static String hash(String password) {
        return htpasswd(password, 10);
    }

    /** The subject of the certificate a new TLS connection is served. */
    private static String servedName(int port) throws Exception {
        try (javax.net.ssl.SSLSocket socket = (javax.net.ssl.SSLSocket) trustAll().getSocketFactory()
                .createSocket("127.0.0.1", port)) {
            socket.startHandshake();
            return ((X509Certificate) socket.getSession().getPeerCertificates()[0]).getSubjectX500Principal()
                    .getName();
        }
    }

    /** A TLS key every user can read is refused before anything listens, as OpenSSH refuses its keys. */
    @Test
    void aKeyEveryUserCanReadIsRefused() throws Exception {
        Tools.require("openssl", "openssl");
        certificate("open");
        Files.setPosixFilePermissions(dir.resolve("key.pem"), java.nio.file.attribute.PosixFilePermissions
                .fromString("rw-r--r--"));
        Path web = Files.writeString(dir.resolve("web.yml"), "tls_server_config:\n  cert_file: cert.pem\n"
                + "  key_file: key.pem\n");
        assertThatThrownBy(() -> MetricsServer.start("127.0.0.1", 0, web, collector)).hasMessageContaining(
                "can be read by every user").hasMessageContaining("chmod 600");
        Files.setPosixFilePermissions(dir.resolve("key.pem"), java.nio.file.attribute.PosixFilePermissions
                .fromString("rw-r-----"));
        try (MetricsServer s = MetricsServer.start("127.0.0.1", 0, web, collector)) {
            assertThat(s.tls()).isTrue();
        }
    }

    @Test
    void onlyGetAndHeadOfMetricsAreAnswered() throws Exception {
        try (MetricsServer s = MetricsServer.start("127.0.0.1", 0, WebConfig.none(), collector)) {
            String base = "http://127.0.0.1:" + s.port();
            HttpClient http = HttpClient.newHttpClient();
            HttpResponse<String> ok = http.send(HttpRequest.newBuilder(URI.create(base + "/metrics")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(ok.statusCode()).isEqualTo(200);
            assertThat(ok.body()).contains("gpuforge_gpu_temperature_celsius");
            assertThat(http.send(HttpRequest.newBuilder(URI.create(base + "/metrics")).method("HEAD",
                    HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.discarding()).statusCode())
                    .isEqualTo(200);
            for (String path : List.of("/metricsX", "/metrics/", "/", "/../etc/passwd", "/-/healthy")) {
                HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(base + path)).build(),
                        HttpResponse.BodyHandlers.ofString());
                assertThat(r.statusCode()).as(path).isEqualTo(404);
                assertThat(r.body()).as(path).doesNotContainIgnoringCase("prometheus");
            }
            for (String method : List.of("POST", "DELETE", "PUT")) {
                HttpResponse<Void> r = http.send(HttpRequest.newBuilder(URI.create(base + "/metrics")).method(method,
                        HttpRequest.BodyPublishers.ofString("x")).build(), HttpResponse.BodyHandlers.discarding());
                assertThat(r.statusCode()).as(method).isEqualTo(405);
                assertThat(r.headers().firstValue("Allow")).as(method).contains("GET, HEAD");
            }
        }
    }

    @Test
    void anUnknownUserCostsABcryptAsAKnownOneAndAGoodPasswordIsCheckedOnce() {
        String hash = htpasswd("s3cret", 4);
        java.util.concurrent.atomic.AtomicInteger bcrypts = new java.util.concurrent.atomic.AtomicInteger();
        MetricsServer.Guard g = new MetricsServer.Guard(false, Map.of("prometheus", hash), (pw, h) -> {
            bcrypts.incrementAndGet();
            return MetricsServer.Guard.bcrypt(pw, h);
        });
        assertThat(g.valid("nobody", "s3cret")).isFalse();
        assertThat(bcrypts.get()).as("an unknown user is not told apart by a missing bcrypt").isEqualTo(1);
        assertThat(g.valid("prometheus", "wrong")).isFalse();
        assertThat(g.valid("prometheus", "s3cret")).isTrue();
        assertThat(bcrypts.get()).isEqualTo(3);
        for (int i = 0; i < 5; i++) {
            assertThat(g.valid("prometheus", "s3cret")).isTrue();
        }
        assertThat(bcrypts.get()).as("a verified password is remembered by its hash: scrapes pay no bcrypt").isEqualTo(3);
        assertThat(g.valid("prometheus", "wrong")).as("a wrong one is never remembered").isFalse();
        assertThat(bcrypts.get()).isEqualTo(4);
    }

    @Test
    void anAddressOffLoopbackNeedsTlsAndBasicAuth() {
        assertThatThrownBy(() -> MetricsServer.start("0.0.0.0", 0, WebConfig.none(), collector))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("needs TLS and basic auth");
    }

    @Test
    void aWebConfigWithKeysItDoesNotKnowOrAPlainPasswordIsRefused() throws Exception {
        Path unknown = Files.writeString(dir.resolve("a.yml"), "http_server_config:\n  http2: false\n");
        assertThatThrownBy(() -> WebConfig.read(unknown)).hasMessageContaining("http_server_config is not supported");
        Path plain = Files.writeString(dir.resolve("b.yml"), "basic_auth_users:\n  alice: hunter2\n");
        assertThatThrownBy(() -> WebConfig.read(plain)).hasMessageContaining("not a bcrypt hash");
    }

    @Test
    void onLoopbackOnlyLoopbackHostNamesAreAnswered() {
        assertThat(MetricsServer.Guard.loopbackHost("127.0.0.1:9835")).isTrue();
        assertThat(MetricsServer.Guard.loopbackHost("localhost")).isTrue();
        assertThat(MetricsServer.Guard.loopbackHost("[::1]:9835")).isTrue();
        assertThat(MetricsServer.Guard.loopbackHost("evil.example:9835")).isFalse();
        assertThat(MetricsServer.Guard.loopbackHost("localhost.evil.example")).isFalse();
        assertThat(MetricsServer.Guard.loopbackHost(null)).isFalse();
    }

    private static int status(HttpClient http, String url, String user) throws Exception {
        return http.send(request(url, user), HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    private static HttpRequest request(String url, String user) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url));
        if (user != null) {
            b.header("Authorization", "Basic " + Base64.getEncoder().encodeToString(user.getBytes(
                    StandardCharsets.UTF_8)));
        }
        return b.build();
    }

    /** The test's self-signed certificate is trusted as it is; the point here is that the server speaks TLS. */
    private static SSLContext trustAll() throws Exception {
        SSLContext ctx = SSLContext.getInstance("TLS");
        ctx.init(null, new TrustManager[] {new X509TrustManager() {
            @Override
            public void checkClientTrusted(X509Certificate[] c, String a) {
            }

            @Override
            public void checkServerTrusted(X509Certificate[] c, String a) {
            }

            @Override
            public X509Certificate[] getAcceptedIssuers() {
                return new X509Certificate[0];
            }
        }}, null);
        return ctx;
    }
}
