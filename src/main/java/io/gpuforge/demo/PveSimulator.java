package io.gpuforge.demo;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import io.gpuforge.host.ThreadPriority;
import io.gpuforge.hypervisor.proxmox.ContractValidator;
import io.gpuforge.hypervisor.proxmox.PinnedTrust;
import io.gpuforge.hypervisor.proxmox.PveApiException;
import io.gpuforge.hypervisor.proxmox.PveClient;
import io.gpuforge.hypervisor.proxmox.PveContract;
import io.gpuforge.hypervisor.proxmox.PveCredentials;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

/**
 * A simulated Proxmox VE cluster speaking the PVE HTTP API on loopback HTTPS (a self-signed demo
 * certificate, so clients pin it like a real PVE host). Every request is checked against the endpoint
 * contract and refused like PVE does (400 with {@code errors}, 401, 501 for unknown paths), so a client
 * bug shows up as a failing test. The "Demo lab" connection of the app runs one.
 */
public final class PveSimulator implements AutoCloseable {

    /** pveproxy refuses a request body over 64 KiB with 413 ({@code $limit_max_post}); so does the simulator. */
    static final int MAX_POST_BYTES = 64 * 1024;

    public static final String TOKEN_ID = "root@pam!gpuforge";
    /** How long a ticket is good for, as in PVE: it is renewed by logging in with it as the password before then. */
    public static final Duration TICKET_LIFETIME = Duration.ofHours(2);
    /**
     * How many nice levels the simulated servers give way by: as many as the app's own background threads once its
     * window is drawn ({@code AppExecutors.NICER}), so the Demo lab never outranks the window and is not starved by
     * the app's other background work either (at +10 a busy monitor page kept the lab's answers waiting for seconds).
     */
    public static final int SERVER_NICER = 5;
    private static final String KEYSTORE = "/demo/demo-lab.p12";
    private static final char[] KEYSTORE_PASSWORD = "gpuforge-demo".toCharArray();

    private final HttpsServer server;
    private final SimCluster cluster;
    private final PveContract contract = PveContract.load();
    private final String tokenSecret = UUID.randomUUID().toString();
    /** root@pam's password for this run (the simulator listens on loopback, where any local user can find it). */
    private final String password = "demo-" + UUID.randomUUID();
    private volatile Clock clock = Clock.systemUTC();
    private final ObjectMapper json = new ObjectMapper();
    private final AtomicInteger requests = new AtomicInteger();
    private final AtomicInteger passwordLogins = new AtomicInteger();
    private final AtomicInteger renewals = new AtomicInteger();
    /** Tickets given out, with their CSRF token ({@code tfa-pending} for a TFA challenge), user and issue time. */
    private final Map<String, Ticket> tickets = new LinkedHashMap<>();

    private record Ticket(String csrf, String user, long issuedMillis) {
    }
    private final SimApi api;
    private final String fingerprint;
    private volatile SimStore store;
    private volatile int outageStatus;
    private volatile String outageMessage = "";

    public PveSimulator(SimCluster cluster) throws IOException, GeneralSecurityException {
        this(cluster, KEYSTORE, SERVER_NICER);
    }

    /** With another certificate (tests of a changed server certificate). */
    public PveSimulator(SimCluster cluster, String keystoreResource) throws IOException, GeneralSecurityException {
        this(cluster, keystoreResource, SERVER_NICER);
    }

    /**
     * With the simulated servers' threads {@code serverNicer} nice levels below the process's main thread (Linux): a
     * benchmark of the window, where the servers stand for other machines, puts them out of its way (19).
     */
    public PveSimulator(SimCluster cluster, int serverNicer) throws IOException, GeneralSecurityException {
        this(cluster, KEYSTORE, serverNicer);
    }

    private PveSimulator(SimCluster cluster, String keystoreResource, int serverNicer)
            throws IOException, GeneralSecurityException {
        this.cluster = cluster;
        this.api = new SimApi(cluster);
        KeyStore ks = KeyStore.getInstance("PKCS12");
        try (InputStream in = PveSimulator.class.getResourceAsStream(keystoreResource)) {
            if (in == null) {
                throw new IOException(keystoreResource + " is missing");
            }
            ks.load(in, KEYSTORE_PASSWORD);
        }
        this.fingerprint = PinnedTrust.fingerprint((X509Certificate) ks.getCertificate(ks.aliases().nextElement()));
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(ks, KEYSTORE_PASSWORD);
        SSLContext ssl = SSLContext.getInstance("TLS");
        ssl.init(kmf.getKeyManagers(), null, null);
        // the JDK server writes headers and body separately: without TCP_NODELAY every answer waits ~40 ms for
        // the client's delayed ACK (Nagle). Read once by the JDK when its first server is made.
        System.setProperty("sun.net.httpserver.nodelay", "true");
        server = HttpsServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setHttpsConfigurator(new HttpsConfigurator(ssl));
        server.createContext("/api2/json/", this::handle);
        // the simulator stands for the cluster's servers, whose work is not the user's machine's: its threads give way
        server.setExecutor(Executors.newFixedThreadPool(4, r -> {
            Thread t = new Thread(() -> {
                ThreadPriority.lowerCurrentThread(serverNicer);
                r.run();
            }, "pve-simulator");
            t.setDaemon(true);
            return t;
        }));
        server.start();
    }

    public String url() {
        return "https://127.0.0.1:" + server.getAddress().getPort();
    }

    /** root@pam's (and {@link #TFA_USER}'s) password for this run. */
    public String password() {
        return password;
    }

    /** The simulator's clock, for tests of tickets that outlive their two hours. */
    public void useClock(Clock c) {
        clock = c;
    }

    /** {@code USER@REALM!ID=SECRET} for this run. */
    public String token() {
        return TOKEN_ID + "=" + tokenSecret;
    }

    /** SHA-256 fingerprint of the simulator's certificate: what the Demo lab connection pins. */
    public String certificateFingerprint() {
        return fingerprint;
    }

    /** A client holding this run's API token and pinning this certificate: how the Demo lab connects. */
    public PveClient tokenClient(PveContract contract) throws PveApiException {
        return new PveClient(url(), PveCredentials.Token.parse(token()), Optional.of(certificateFingerprint()), contract);
    }

    /**
     * From now on every request is answered with {@code status} and {@code message}, as pveproxy answers while
     * pvedaemon or the node it proxies to is down (500, 595 "Errors during connection establishment", 596 "Broken
     * pipe"); 0 answers normally again. For the tests of a server that fails.
     */
    public void outage(int status, String message) {
        outageMessage = message == null ? "" : message;
        outageStatus = status;
    }

    /** Logins of root@pam with its password, and tickets renewed with a ticket, so far. */
    public int passwordLogins() {
        return passwordLogins.get();
    }

    public int ticketRenewals() {
        return renewals.get();
    }

    public int requestCount() {
        return requests.get();
    }

    public SimCluster cluster() {
        return cluster;
    }

    /**
     * Keeps the cluster in {@code store} from now on: what was kept there is read first (or the cluster written as
     * the first state), and every request is answered from, and into, the kept state.
     */
    public PveSimulator keptIn(SimStore store) {
        store.attach(cluster);
        this.store = store;
        return this;
    }

    private void handle(HttpExchange ex) throws IOException {
        requests.incrementAndGet();
        try (ex) {
            if (outageStatus != 0) {
                send(ex, outageStatus, outageMessage, null, Map.of());
                return;
            }
            String method = ex.getRequestMethod();
            String path = ex.getRequestURI().getRawPath().substring("/api2/json".length());
            if (path.length() > 1 && path.endsWith("/")) {
                path = path.substring(0, path.length() - 1);
            }
            path = URLDecoder.decode(path, StandardCharsets.UTF_8);
            var endpoint = contract.find(method, path);
            if (endpoint.isEmpty()) {
                send(ex, 501, "Method '" + method + " " + path + "' not implemented", null, Map.of());
                return;
            }
            Map<String, List<String>> params = new LinkedHashMap<>();
            parse(ex.getRequestURI().getRawQuery(), params);
            if (method.equals("POST") || method.equals("PUT")) {
                byte[] body;
                try {
                    body = io.gpuforge.bounded.BoundedStreams.readAll(ex.getRequestBody(), "the request body",
                            MAX_POST_BYTES);
                } catch (io.gpuforge.bounded.BoundedReadException e) {
                    send(ex, 413, "request too large", null, Map.of());
                    return;
                }
                parse(new String(body, StandardCharsets.UTF_8), params);
            }
            Map<String, List<String>> checked = new LinkedHashMap<>(params);
            String[] t = endpoint.get().path().split("/");
            String[] c = path.split("/");
            for (int i = 0; i < t.length; i++) {
                if (t[i].startsWith("{")) {
                    checked.put(t[i].substring(1, t[i].length() - 1), List.of(c[i]));
                }
            }
            Map<String, String> errors = ContractValidator.check(endpoint.get(), checked);
            if (!errors.isEmpty()) {
                send(ex, 400, "Parameter verification failed.", null, errors);
                return;
            }
            String user = path.equals("/access/ticket") ? "" : authorised(ex, !method.equals("GET"));
            if (user == null) {
                failedAuth(ex);
                return;
            }
            Map<String, String> single = new LinkedHashMap<>();
            checked.forEach((k, v) -> single.put(k, v.get(0)));
            if (path.equals("/access/ticket")) {
                login(ex, single);
                return;
            }
            SimApi.Answer a;
            String template = endpoint.get().path();
            synchronized (cluster) {
                SimStore kept = store;
                a = kept == null ? api.answer(method, template, single, checked, new SimApi.Caller(user))
                        : kept.turn(cluster, () -> api.answer(method, template, single, checked, new SimApi.Caller(user)));
            }
            send(ex, a.status(), a.message(), a.data(), a.errors());
        } catch (RuntimeException e) {
            send(ex, 500, "internal error: " + e.getMessage(), null, Map.of());
        }
    }

    /** The user a request authenticates as ({@code root@pam!gpuforge} for the token), or null when refused. */
    private String authorised(HttpExchange ex, boolean write) {
        String auth = ex.getRequestHeaders().getFirst("Authorization");
        if (auth != null) {
            return auth.equals("PVEAPIToken=" + token()) ? TOKEN_ID : null;
        }
        String cookie = ex.getRequestHeaders().getFirst("Cookie");
        if (cookie == null || !cookie.startsWith("PVEAuthCookie=")) {
            return null;
        }
        String ticket = URLDecoder.decode(cookie.substring("PVEAuthCookie=".length()).split(";")[0], StandardCharsets.UTF_8);
        Ticket t = valid(ticket);
        boolean ok = t != null && !t.csrf().equals("tfa-pending")
                && (!write || t.csrf().equals(ex.getRequestHeaders().getFirst("CSRFPreventionToken")));
        return ok ? t.user() : null;
    }

    /** The ticket while it is less than {@link #TICKET_LIFETIME} old; an expired one is forgotten. */
    private Ticket valid(String ticket) {
        synchronized (tickets) {
            Ticket t = ticket == null ? null : tickets.get(ticket);
            if (t != null && clock.millis() - t.issuedMillis() >= TICKET_LIFETIME.toMillis()) {
                tickets.remove(ticket);
                return null;
            }
            return t;
        }
    }

    /** A user with a TOTP second factor, whose current code is {@link #TOTP_CODE}. */
    public static final String TFA_USER = "ops@pve";
    public static final String TOTP_CODE = "123456";

    /** PVE answers a failed login only after a delay (to slow guessing); so does the simulator, shorter. */
    static final long AUTH_FAILURE_DELAY_MILLIS = 300;

    private void failedAuth(HttpExchange ex) throws IOException {
        try {
            Thread.sleep(AUTH_FAILURE_DELAY_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        send(ex, 401, "authentication failure", null, Map.of());
    }

    private void login(HttpExchange ex, Map<String, String> p) throws IOException {
        String user = p.get("username");
        Ticket renewing = valid(p.get("password"));
        if (renewing != null && !renewing.csrf().equals("tfa-pending") && renewing.user().equals(user)) {
            // PVE takes a valid ticket as the password: a new ticket, no password and no second factor again
            renewals.incrementAndGet();
        } else if (TFA_USER.equals(user) && p.containsKey("tfa-challenge")) {
            boolean known;
            synchronized (tickets) {
                known = tickets.remove(p.get("tfa-challenge")) != null;
            }
            if (!known || !("totp:" + TOTP_CODE).equals(p.get("password"))) {
                failedAuth(ex);
                return;
            }
        } else if (TFA_USER.equals(user) && password.equals(p.get("password"))) {
            String challenge = "PVE:!tfa!" + user + ":" + UUID.randomUUID();
            synchronized (tickets) {
                tickets.put(challenge, new Ticket("tfa-pending", user, clock.millis()));
            }
            send(ex, 200, "OK", Map.of("ticket", challenge, "NeedTFA", 1, "username", user), Map.of());
            return;
        } else if (!"root@pam".equals(user) || !password.equals(p.get("password"))) {
            failedAuth(ex);
            return;
        } else {
            passwordLogins.incrementAndGet();
        }
        String ticket = "PVE:" + user + ":" + Long.toHexString(clock.millis() / 1000).toUpperCase(Locale.ROOT) + "::"
                + UUID.randomUUID();
        String csrf = Long.toHexString(System.nanoTime()) + ":" + UUID.randomUUID();
        synchronized (tickets) {
            tickets.put(ticket, new Ticket(csrf, user, clock.millis()));
        }
        send(ex, 200, "OK", Map.of("ticket", ticket, "CSRFPreventionToken", csrf, "username", user), Map.of());
    }

    private static void parse(String raw, Map<String, List<String>> into) {
        if (raw == null || raw.isEmpty()) {
            return;
        }
        for (String kv : raw.split("&")) {
            int eq = kv.indexOf('=');
            String k = URLDecoder.decode(eq < 0 ? kv : kv.substring(0, eq), StandardCharsets.UTF_8);
            String v = eq < 0 ? "" : URLDecoder.decode(kv.substring(eq + 1), StandardCharsets.UTF_8);
            into.computeIfAbsent(k, x -> new ArrayList<>()).add(v);
        }
    }

    private void send(HttpExchange ex, int status, String message, Object data, Map<String, String> errors)
            throws IOException {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("data", data);
        if (!errors.isEmpty()) {
            body.put("errors", errors);
        }
        byte[] bytes = json.writeValueAsBytes(body);
        ex.getResponseHeaders().set("Content-Type", "application/json;charset=UTF-8");
        // PVE puts its message in the HTTP status line; the JDK server cannot, so it goes into a header too
        ex.getResponseHeaders().set("X-PVE-Message", message.replaceAll("[^\\x20-\\x7e]", "?"));
        ex.sendResponseHeaders(status, bytes.length);
        ex.getResponseBody().write(bytes);
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
