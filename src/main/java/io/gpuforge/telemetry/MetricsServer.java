package io.gpuforge.telemetry;

import com.sun.net.httpserver.Authenticator;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpPrincipal;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsServer;
import io.prometheus.metrics.config.PrometheusProperties;
import io.prometheus.metrics.exporter.httpserver.HttpErrorHandlingPolicy;
import io.prometheus.metrics.exporter.httpserver.MetricsHandler;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ThreadPoolExecutor;
import org.bouncycastle.crypto.generators.OpenBSDBCrypt;

/**
 * The Prometheus endpoint of {@code gpuforge serve} ({@code /metrics}), on Prometheus' Java client library. On a
 * loopback address it answers only requests whose {@code Host} is a loopback name, so a web page cannot reach it by
 * rebinding its own domain to 127.0.0.1; any other address needs TLS and basic auth from a web configuration file
 * ({@link WebConfig}), checked before anything listens.
 */
public final class MetricsServer implements AutoCloseable {

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(MetricsServer.class);
    private final HttpServer server;
    private final ThreadPoolExecutor pool;
    private final boolean tls;

    private MetricsServer(HttpServer server, ThreadPoolExecutor pool, boolean tls) {
        this.server = server;
        this.pool = pool;
        this.tls = tls;
    }

    /** Whether it speaks TLS (https). */
    public boolean tls() {
        return tls;
    }

    /**
     * Listens on {@code host:port} (port 0: a free one), with its own bounded pool and the process's connection
     * limits ({@link ServeLimits}).
     *
     * @throws IllegalArgumentException a non-loopback address without TLS and basic auth
     */
    public static MetricsServer start(String host, int port, WebConfig web, MultiCollector collector)
            throws IOException {
        return start(host, port, WebConfigWatch.fixed(web), collector);
    }

    /**
     * The same with the web configuration from {@code webConfig}, re-read when it changes (users, passwords, the
     * certificate and key files) as Prometheus' exporters do.
     */
    public static MetricsServer start(String host, int port, java.nio.file.Path webConfig, MultiCollector collector)
            throws IOException {
        boolean loopback = InetAddress.getByName(host).isLoopbackAddress();
        return start(host, port, WebConfigWatch.of(webConfig, WebConfig.read(webConfig), loopback), collector);
    }

    private static MetricsServer start(String host, int port, WebConfigWatch watch, MultiCollector collector)
            throws IOException {
        ServeLimits.install();
        WebConfig web = watch.current();
        InetAddress address = InetAddress.getByName(host);
        boolean loopback = address.isLoopbackAddress();
        if (!loopback && (!web.tls() || !web.basicAuth())) {
            throw new IllegalArgumentException("serving metrics on " + host + " (not a loopback address) needs TLS"
                    + " and basic auth: give a web configuration file (--web-config) with tls_server_config and"
                    + " basic_auth_users, as Prometheus' exporters take");
        }
        PrometheusRegistry registry = new PrometheusRegistry();
        registry.register(collector);
        InetSocketAddress at = new InetSocketAddress(address, port);
        HttpServer server;
        if (web.tls()) {
            HttpsServer https = HttpsServer.create(at, ServeLimits.BACKLOG);
            https.setHttpsConfigurator(new HttpsConfigurator(ReloadingKeyManager.context(watch)));
            server = https;
        } else {
            server = HttpServer.create(at, ServeLimits.BACKLOG);
        }
        ThreadPoolExecutor pool = ServeLimits.pool("gpuforge-metrics");
        server.setExecutor(pool);
        // one context for every path: the guard answers 404 for any but /metrics, before the library sees it
        ThreadLocal<Exception> failed = new ThreadLocal<>();
        HttpErrorHandlingPolicy errors = HttpErrorHandlingPolicy.builder().errorReporter(failed::set).build();
        HttpHandler metrics = new MetricsHandler(PrometheusProperties.get(), registry, errors);
        server.createContext("/", x -> {
            failed.remove();
            metrics.handle(x);
            Exception e = failed.get();
            failed.remove();
            if (e != null) {
                // the library swallowed it (a client that hung up): thrown, the JDK's server lets the connection go
                // now instead of holding it, counted, until its response deadline
                LOG.debug("a metrics request ended early: {}", e.toString());
                throw new IOException("the metrics answer did not go out: " + e.getMessage(), e);
            }
        }).setAuthenticator(new Guard(loopback, () -> watch.current().users(), Guard::bcrypt));
        server.start();
        return new MetricsServer(server, pool, web.tls());
    }

    public int port() {
        return server.getAddress().getPort();
    }

    @Override
    public void close() {
        server.stop(0);
        pool.shutdownNow();
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
        private static final String DUMMY = dummy();
        /** How many verified credentials are remembered (the hash of user and password, never the password). */
        private static final int CACHE = 64;
        private final boolean loopback;
        private final java.util.function.Supplier<Map<String, String>> users;
        private final java.util.function.BiPredicate<String, String> checkpw;
        private final Map<String, Boolean> verified = java.util.Collections.synchronizedMap(
                new java.util.LinkedHashMap<>(16, 0.75f, true) {
                    @Override
                    protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
                        return size() > CACHE;
                    }
                });

        Guard(boolean loopback, Map<String, String> users) {
            this(loopback, () -> users, Guard::bcrypt);
        }

        /** With the bcrypt check given ({@code checkpw(password, hash)}): tests count its calls. */
        Guard(boolean loopback, Map<String, String> users, java.util.function.BiPredicate<String, String> checkpw) {
            this(loopback, () -> users, checkpw);
        }

        /** The users as they are now (a web configuration re-read when it changes). */
        Guard(boolean loopback, java.util.function.Supplier<Map<String, String>> users,
              java.util.function.BiPredicate<String, String> checkpw) {
            this.loopback = loopback;
            this.users = users;
            this.checkpw = checkpw;
        }

        /**
         * Whether the user and password are right: bcrypt once per credential (remembered by its SHA-256 after a
         * success, so a scrape every few seconds costs no bcrypt), and as much for an unknown user as for a known one.
         */
        boolean valid(String user, String password) {
            String hash = users.get().get(user);
            // the hash in the key: a password changed or a user removed in the configuration is not remembered
            String key = sha256(user + '\u0000' + password + '\u0000' + hash);
            if (hash != null && verified.containsKey(key)) {
                return true;
            }
            boolean ok = checkpw.test(password, hash == null ? DUMMY : hash) && hash != null;
            if (ok) {
                verified.put(key, Boolean.TRUE);
            }
            return ok;
        }

        private static String dummy() {
            SecureRandom random = new SecureRandom();
            byte[] salt = new byte[16];
            random.nextBytes(salt);
            return OpenBSDBCrypt.generate("2y", Long.toHexString(random.nextLong()).toCharArray(), salt, 10);
        }

        /**
         * Whether {@code password} is the one of a bcrypt hash ({@code $2y$}, htpasswd's; {@code $2a$}, {@code $2b$}),
         * by Bouncy Castle's OpenBSD bcrypt; a hash it cannot read matches nothing.
         */
        static boolean bcrypt(String password, String hash) {
            try {
                return OpenBSDBCrypt.checkPassword(hash, password.toCharArray());
            } catch (RuntimeException e) {
                return false;
            }
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
            if (users.get().isEmpty()) {
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
}
