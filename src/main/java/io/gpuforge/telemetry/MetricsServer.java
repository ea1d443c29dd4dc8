package io.gpuforge.telemetry;

import io.gpuforge.bounded.BoundedStreams;
import com.sun.net.httpserver.Authenticator;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpPrincipal;
import com.sun.net.httpserver.HttpsConfigurator;
import io.prometheus.metrics.exporter.httpserver.HTTPServer;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import org.mindrot.jbcrypt.BCrypt;

/**
 * The Prometheus endpoint of {@code gpuforge serve} ({@code /metrics}), on Prometheus' Java client library. On a
 * loopback address it answers only requests whose {@code Host} is a loopback name, so a web page cannot reach it by
 * rebinding its own domain to 127.0.0.1; any other address needs TLS and basic auth from a web configuration file
 * ({@link WebConfig}), checked before anything listens.
 */
public final class MetricsServer implements AutoCloseable {

    private final HTTPServer server;
    private final boolean tls;

    private MetricsServer(HTTPServer server, boolean tls) {
        this.server = server;
        this.tls = tls;
    }

    /** Whether it speaks TLS (https). */
    public boolean tls() {
        return tls;
    }

    /**
     * Listens on {@code host:port} (port 0: a free one).
     *
     * @throws IllegalArgumentException a non-loopback address without TLS and basic auth
     */
    public static MetricsServer start(String host, int port, WebConfig web, MultiCollector collector,
                                      ExecutorService pool) throws IOException {
        InetAddress address = InetAddress.getByName(host);
        boolean loopback = address.isLoopbackAddress();
        if (!loopback && (!web.tls() || !web.basicAuth())) {
            throw new IllegalArgumentException("serving metrics on " + host + " (not a loopback address) needs TLS"
                    + " and basic auth: give a web configuration file (--web-config) with tls_server_config and"
                    + " basic_auth_users, as Prometheus' exporters take");
        }
        PrometheusRegistry registry = new PrometheusRegistry();
        registry.register(collector);
        HTTPServer.Builder b = HTTPServer.builder().inetAddress(address).port(port).registry(registry)
                .executorService(pool).authenticator(new Guard(loopback, web.users()));
        if (web.tls()) {
            b.httpsConfigurator(new HttpsConfigurator(tls(web)));
        }
        return new MetricsServer(b.buildAndStart(), web.tls());
    }

    public int port() {
        return server.getPort();
    }

    @Override
    public void close() {
        server.close();
    }

    /**
     * The Host check on loopback, GET or HEAD of {@code /metrics} only (404, 405 otherwise), and basic auth with
     * bcrypt hashes where users are configured.
     */
    static final class Guard extends Authenticator {
        private static final List<String> LOOPBACK_NAMES = List.of("localhost", "127.0.0.1", "[::1]", "::1");
        /** The one path answered, where Prometheus scrapes. */
        static final String PATH = "/metrics";
        /** A bcrypt hash no password matches: an unknown user pays the same bcrypt as a known one. */
        private static final String DUMMY = BCrypt.hashpw(Long.toHexString(new SecureRandom().nextLong()),
                BCrypt.gensalt(10));
        /** How many verified credentials are remembered (the hash of user and password, never the password). */
        private static final int CACHE = 64;
        private final boolean loopback;
        private final Map<String, String> users;
        private final java.util.function.BiPredicate<String, String> checkpw;
        private final Map<String, Boolean> verified = java.util.Collections.synchronizedMap(
                new java.util.LinkedHashMap<>(16, 0.75f, true) {
                    @Override
                    protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
                        return size() > CACHE;
                    }
                });

        Guard(boolean loopback, Map<String, String> users) {
            this(loopback, users, BCrypt::checkpw);
        }

        /** With the bcrypt check given ({@code checkpw(password, hash)}): tests count its calls. */
        Guard(boolean loopback, Map<String, String> users, java.util.function.BiPredicate<String, String> checkpw) {
            this.loopback = loopback;
            this.users = users;
            this.checkpw = checkpw;
        }

        /**
         * Whether the user and password are right: bcrypt once per credential (remembered by its SHA-256 after a
         * success, so a scrape every few seconds costs no bcrypt), and as much for an unknown user as for a known one.
         */
        boolean valid(String user, String password) {
            String key = sha256(user + '\u0000' + password);
            if (verified.containsKey(key)) {
                return true;
            }
            String hash = users.get(user);
            boolean ok = checkpw.test(password, hash == null ? DUMMY : "$2a$" + hash.substring(4)) && hash != null;
            if (ok) {
                verified.put(key, Boolean.TRUE);
            }
            return ok;
        }

        private static String sha256(String s) {
            try {
                return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256")
                        .digest(s.getBytes(StandardCharsets.UTF_8)));
            } catch (java.security.NoSuchAlgorithmException e) {
                throw new IllegalStateException("this Java has no SHA-256", e);
            }
        }

        @Override
        public Result authenticate(HttpExchange x) {
            if (loopback && !loopbackHost(x.getRequestHeaders().getFirst("Host"))) {
                return new Failure(403);
            }
            // one path, read only: no other page (the client library's, naming it), no other method, before any
            // password is checked
            if (!PATH.equals(x.getRequestURI().getRawPath())) {
                return new Failure(404);
            }
            if (!x.getRequestMethod().equals("GET") && !x.getRequestMethod().equals("HEAD")) {
                x.getResponseHeaders().set("Allow", "GET, HEAD");
                return new Failure(405);
            }
            if (users.isEmpty()) {
                return new Success(new HttpPrincipal("anonymous", "gpuforge"));
            }
            String auth = x.getRequestHeaders().getFirst("Authorization");
            if (auth != null && auth.regionMatches(true, 0, "Basic ", 0, 6)) {
                String pair;
                try {
                    pair = new String(Base64.getDecoder().decode(auth.substring(6).strip()), StandardCharsets.UTF_8);
                } catch (IllegalArgumentException e) {
                    pair = "";
                }
                int colon = pair.indexOf(':');
                if (colon > 0 && valid(pair.substring(0, colon), pair.substring(colon + 1))) {
                    return new Success(new HttpPrincipal(pair.substring(0, colon), "gpuforge"));
                }
            }
            x.getResponseHeaders().set("WWW-Authenticate", "Basic realm=\"gpuforge\"");
            return new Retry(401);
        }

        /** "localhost", "127.0.0.1:9835", "[::1]:9835": a loopback name, with or without a port. */
        static boolean loopbackHost(String host) {
            if (host == null) {
                return false;
            }
            String h = host.strip().toLowerCase(Locale.ROOT);
            if (h.startsWith("[")) {
                int end = h.indexOf(']');
                h = end < 0 ? h : h.substring(0, end + 1);
            } else if (h.indexOf(':') == h.lastIndexOf(':') && h.contains(":")) {
                h = h.substring(0, h.indexOf(':'));
            }
            return LOOPBACK_NAMES.contains(h);
        }
    }

    /** A TLS context from the PEM certificate chain and PKCS#8 key the web configuration names. */
    private static SSLContext tls(WebConfig web) throws IOException {
        try {
            List<? extends Certificate> chain;
            try (var in = Files.newInputStream(web.certFile().orElseThrow())) {
                chain = List.copyOf(CertificateFactory.getInstance("X.509").generateCertificates(in));
            }
            if (chain.isEmpty()) {
                throw new IOException(web.certFile().get() + " holds no certificate");
            }
            PrivateKey key = key(BoundedStreams.readString(web.keyFile().orElseThrow(), 1 << 20));
            char[] pass = Long.toHexString(new SecureRandom().nextLong()).toCharArray();
            KeyStore ks = KeyStore.getInstance("PKCS12");
            ks.load(null, null);
            ks.setKeyEntry("gpuforge", key, pass, chain.toArray(new Certificate[0]));
            KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            kmf.init(ks, pass);
            SSLContext ctx = SSLContext.getInstance("TLS");
            ctx.init(kmf.getKeyManagers(), null, new SecureRandom());
            return ctx;
        } catch (GeneralSecurityException e) {
            throw new IOException("the TLS certificate or key cannot be used: " + e.getMessage(), e);
        }
    }

    private static PrivateKey key(String pem) throws IOException {
        if (!pem.contains("-----BEGIN PRIVATE KEY-----")) {
            throw new IOException("the key_file must be an unencrypted PKCS#8 PEM key (BEGIN PRIVATE KEY); convert"
                    + " one with: openssl pkcs8 -topk8 -nocrypt -in key.pem -out key-pkcs8.pem");
        }
        String b64 = pem.substring(pem.indexOf("-----BEGIN PRIVATE KEY-----") + 27, pem.indexOf("-----END PRIVATE KEY"))
                .replaceAll("\\s", "");
        PKCS8EncodedKeySpec spec = new PKCS8EncodedKeySpec(Base64.getDecoder().decode(b64));
        for (String alg : new String[] {"RSA", "EC", "Ed25519"}) {
            try {
                return KeyFactory.getInstance(alg).generatePrivate(spec);
            } catch (GeneralSecurityException e) {
                // try the next kind of key
            }
        }
        throw new IOException("the key_file holds no RSA, EC or Ed25519 key");
    }
}
