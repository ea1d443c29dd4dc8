package io.gpuforge.hypervisor.proxmox;

import com.fasterxml.jackson.databind.JsonNode;
import io.gpuforge.domain.passthrough.Check;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLSession;
import okhttp3.FormBody;
import okhttp3.HttpUrl;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;
import okhttp3.ResponseBody;
import okio.BufferedSource;

/**
 * The Proxmox VE REST client: one {@link OkHttpClient} per server with explicit timeouts, API token or
 * ticket authentication (cookie + CSRF token on writes, renewed before the two-hour lifetime ends),
 * system or pinned-fingerprint TLS, every request checked against the {@link PveContract} before it is
 * sent, and every failure a typed {@link PveApiException}. Blocking: call off the FX thread.
 */
public final class PveClient {

    private static final Duration TICKET_RENEWAL = Duration.ofMinutes(100);
    /** The largest answer read: well above a 2,000-VM cluster's /cluster/resources (about 1 MB). */
    static final long MAX_BODY_BYTES = 32L << 20;
    private final HttpUrl base;
    private final OkHttpClient http;
    private final PinnedTrust trust;
    private final PveCredentials credentials;
    private final PveContract contract;
    private final Duration readTimeout;
    private final PveAnswers answers = new PveAnswers();
    private final AtomicInteger requests = new AtomicInteger();
    private String ticket;
    private String csrf;
    private long ticketAt;
    private boolean passwordDropped;
    private final AtomicInteger renewals = new AtomicInteger();
    private Clock clock = Clock.systemUTC();

    /** For tests of the ticket renewal. */
    void useClock(Clock c) {
        this.clock = c;
    }

    /** Times a password login was made (one per ticket). */
    private final AtomicInteger logins = new AtomicInteger();

    int logins() {
        return logins.get();
    }

    /** @param baseUrl {@code https://host:8006} */
    public PveClient(String baseUrl, PveCredentials credentials, Optional<String> pinnedFingerprint, PveContract contract)
            throws PveApiException {
        this(baseUrl, credentials, pinnedFingerprint, contract, Duration.ofSeconds(30));
    }

    /** @param readTimeout how long one answer may take (the whole call gets twice that) */
    public PveClient(String baseUrl, PveCredentials credentials, Optional<String> pinnedFingerprint, PveContract contract,
                     Duration readTimeout) throws PveApiException {
        HttpUrl u = HttpUrl.parse(baseUrl);
        if (u == null || !u.isHttps()) {
            throw new PveApiException(PveApiException.Kind.PROTOCOL, 0, "Proxmox VE is reached over https:// only: '"
                    + baseUrl + "'", Map.of(), null);
        }
        this.base = u.newBuilder().encodedPath("/api2/json/").build();
        this.credentials = credentials;
        this.contract = contract;
        this.readTimeout = readTimeout;
        try {
            this.trust = new PinnedTrust(pinnedFingerprint);
            OkHttpClient.Builder b = new OkHttpClient.Builder()
                    .connectTimeout(Duration.ofSeconds(10)).readTimeout(readTimeout)
                    .callTimeout(readTimeout.multipliedBy(2))
                    // PVE never answers its API with a redirect; following one (https to http above all) would
                    // hand the login, the ticket and the CSRF token to whatever the Location names
                    .followRedirects(false).followSslRedirects(false)
                    .sslSocketFactory(trust.sslContext().getSocketFactory(), trust);
            if (pinnedFingerprint.isPresent()) {
                // a pinned certificate stands for the host: it was accepted for this server by its fingerprint
                b.hostnameVerifier((host, session) -> pinMatches(session));
            }
            this.http = b.build();
        } catch (GeneralSecurityException e) {
            throw new PveApiException(PveApiException.Kind.TLS, 0, "TLS cannot be set up: " + e.getMessage(), Map.of(), e);
        }
    }

    private boolean pinMatches(SSLSession session) {
        try {
            var certs = session.getPeerCertificates();
            return certs.length > 0 && certs[0] instanceof X509Certificate
                    && trust.pinned().equals(Optional.of(PinnedTrust.fingerprint((X509Certificate) certs[0])));
        } catch (javax.net.ssl.SSLPeerUnverifiedException e) {
            return false;
        }
    }

    /** HTTP requests made so far (for the inventory benchmark). */
    public int requestCount() {
        return requests.get();
    }

    /** The fingerprint the server presented on the last connection attempt (to show on first connect). */
    public Optional<String> serverFingerprint() {
        return trust.lastSeen();
    }

    public JsonNode get(String path, Map<String, String> query) throws PveApiException {
        return call("GET", path, query);
    }

    public JsonNode post(String path, Map<String, String> form) throws PveApiException {
        return call("POST", path, form);
    }

    public JsonNode put(String path, Map<String, String> form) throws PveApiException {
        return call("PUT", path, form);
    }

    public JsonNode delete(String path, Map<String, String> query) throws PveApiException {
        return call("DELETE", path, query);
    }

    /** A POST with array parameters, each value sent as its own field ({@code command=nvidia-smi&command=-L}). */
    public JsonNode post(String path, Map<String, String> form, Map<String, List<String>> arrays) throws PveApiException {
        return call("POST", path, form, arrays);
    }

    private JsonNode call(String method, String path, Map<String, String> params) throws PveApiException {
        return call(method, path, params, Map.of());
    }

    private JsonNode call(String method, String path, Map<String, String> params, Map<String, List<String>> arrays)
            throws PveApiException {
        PveContract.Endpoint e = contract.find(method, path).orElseThrow(() -> new PveApiException(
                PveApiException.Kind.NOT_IMPLEMENTED, 0, method + " " + path + " is not in GPUForge's contract", Map.of(), null));
        Map<String, List<String>> all = new LinkedHashMap<>();
        params.forEach((k, v) -> all.put(k, List.of(v)));
        arrays.forEach((k, v) -> all.put(k, List.copyOf(v)));
        pathVariables(e.path(), path).forEach((k, v) -> all.putIfAbsent(k, List.of(v)));
        Map<String, String> problems = ContractValidator.check(e, all);
        if (!problems.isEmpty()) {
            throw new PveApiException(PveApiException.Kind.BAD_REQUEST, 0, "GPUForge built an invalid request for "
                    + method + " " + path, problems, null);
        }
        boolean write = !method.equals("GET");
        if (credentials instanceof PveCredentials.Password && !path.equals("/access/ticket")) {
            ensureTicket();
        }
        HttpUrl.Builder url = base.newBuilder().addEncodedPathSegments(path.substring(1));
        RequestBody body = null;
        if (write && !method.equals("DELETE")) {
            FormBody.Builder form = new FormBody.Builder();
            params.forEach(form::add);
            arrays.forEach((k, vs) -> vs.forEach(v -> form.add(k, v)));
            body = form.build();
        } else {
            params.forEach(url::addQueryParameter);
            arrays.forEach((k, vs) -> vs.forEach(v -> url.addQueryParameter(k, v)));
        }
        Request.Builder r = new Request.Builder().url(url.build()).method(method, body);
        if (credentials instanceof PveCredentials.Token) {
            r.header("Authorization", ((PveCredentials.Token) credentials).header());
        } else if (ticket != null) {
            r.header("Cookie", "PVEAuthCookie=" + URLEncoder.encode(ticket, StandardCharsets.UTF_8));
            if (write) {
                r.header("CSRFPreventionToken", csrf);
            }
        }
        requests.incrementAndGet();
        try (Response resp = http.newCall(r.build()).execute()) {
            if (resp.code() >= 300 && resp.code() <= 399) {
                throw redirected(method, path, resp);
            }
            String text = body(resp, method, path);
            // PVE's reason is the status line; behind proxies that rewrite it (and the simulator, whose HTTP
            // server cannot set one) it is also in X-PVE-Message
            String reason = resp.header("X-PVE-Message") != null ? resp.header("X-PVE-Message") : resp.message();
            return answer(method, path, resp.code(), reason, text);
        } catch (SSLException ex) {
            if (!certificateRefused(ex)) {
                // the connection broke off during or after the handshake (a reset, a cut): the network, not the key
                throw new PveApiException(PveApiException.Kind.NETWORK, 0, method + " " + path + ": the TLS connection"
                        + " to " + base.host() + ":" + base.port() + " broke off (" + ex.getMessage() + "); GPUForge"
                        + " asks again on a new connection", Map.of(), ex);
            }
            String seen = trust.lastSeen().orElse("?");
            String msg = trust.pinned().map(p -> "The server's certificate changed: it presents " + seen
                    + ", but the fingerprint accepted for it is " + p + ". GPUForge refuses to connect.")
                    .orElse("The server's certificate is not trusted by this system (fingerprint " + seen
                            + "). Check it on the server (pvenode cert info) and accept it to pin it.");
            throw new PveApiException(PveApiException.Kind.TLS, 0, msg, Map.of(), ex);
        } catch (java.io.InterruptedIOException ex) {
            throw new PveApiException(PveApiException.Kind.NETWORK, 0, timedOut(method, path, ex), Map.of(), ex);
        } catch (IOException ex) {
            throw new PveApiException(PveApiException.Kind.NETWORK, 0, method + " " + path + " failed: " + ex.getMessage(),
                    Map.of(), ex);
        }
    }

    /** Whether the handshake failed on the server's certificate (not pinned, or not trusted), not on the network. */
    private static boolean certificateRefused(SSLException ex) {
        for (Throwable t = ex; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof java.security.cert.CertificateException) {
                return true;
            }
        }
        return ex instanceof javax.net.ssl.SSLPeerUnverifiedException;
    }

    /**
     * Which deadline a call passed, in words: OkHttp says only "timeout". A socket timeout is the connection (10 s) or
     * one answer ({@code readTimeout} without a byte); any other is the whole call's (twice that: an answer that
     * came too slowly to finish).
     */
    private String timedOut(String method, String path, java.io.InterruptedIOException ex) {
        String server = base.host() + ":" + base.port();
        if (ex instanceof java.net.SocketTimeoutException) {
            if (ex.getMessage() != null && ex.getMessage().contains("connect")) {
                return method + " " + path + ": " + server + " could not be reached within 10 s (a host that is down,"
                        + " or a firewall that drops the connection)";
            }
            return method + " " + path + ": no answer within " + seconds(readTimeout) + " from " + server
                    + " (the server or the network stalled); GPUForge gave up and asks again on a new connection";
        }
        return method + " " + path + ": the answer from " + server + " was not complete within "
                + seconds(readTimeout.multipliedBy(2)) + " (it came too slowly); GPUForge gave up and asks again on a"
                + " new connection";
    }

    private static String seconds(Duration d) {
        return d.toMillis() % 1000 == 0 ? d.toSeconds() + " s" : d.toMillis() + " ms";
    }

    private PveApiException redirected(String method, String path, Response resp) {
        String location = resp.header("Location");
        return new PveApiException(PveApiException.Kind.PROTOCOL, resp.code(), "The server answered " + method + " "
                + path + " with a redirect (" + resp.code() + ") to " + (location == null ? "no location"
                : "'" + PveAnswers.snippet(location) + "'") + ". Proxmox VE never redirects its API, so GPUForge did not follow"
                + " it and sent nothing there: check that " + base.host() + ":" + base.port() + " is the Proxmox VE"
                + " server itself and not a proxy or another service", Map.of(), null);
    }

    /**
     * The answer's body, read up to {@link #MAX_BODY_BYTES}: a larger one (a misdirected URL, a broken or
     * hostile server) is refused as it arrives instead of filling the memory.
     */
    private String body(Response resp, String method, String path) throws IOException, PveApiException {
        ResponseBody b = resp.body();
        if (b == null) {
            return "";
        }
        BufferedSource source = b.source();
        if (b.contentLength() > MAX_BODY_BYTES || source.request(MAX_BODY_BYTES + 1)) {
            throw new PveApiException(PveApiException.Kind.PROTOCOL, resp.code(), "The server's answer to " + method
                    + " " + path + " is more than " + (MAX_BODY_BYTES >> 20) + " MiB, more than Proxmox VE sends for"
                    + " any cluster; check that " + base.host() + ":" + base.port() + " is a Proxmox VE server and"
                    + " not a proxy or another service", Map.of(), null);
        }
        MediaType type = b.contentType();
        return source.readString(type == null ? StandardCharsets.UTF_8 : type.charset(StandardCharsets.UTF_8));
    }

    /** The {@code data} of an answer, or the typed error it stands for. Pure: the fuzz tests call it directly. */
    JsonNode answer(String method, String path, int code, String reason, String text) throws PveApiException {
        return answers.answer(method, path, code, reason, text);
    }

    static Map<String, String> pathVariables(String template, String concrete) {
        Map<String, String> out = new LinkedHashMap<>();
        String[] t = template.split("/");
        String[] c = concrete.split("/");
        for (int i = 0; i < t.length && i < c.length; i++) {
            if (t[i].startsWith("{")) {
                out.put(t[i].substring(1, t[i].length() - 1), c[i]);
            }
        }
        return out;
    }

    /**
     * Logs in with the password (POST /access/ticket) once, then wipes it: the ticket is renewed before its two hours
     * end by logging in with the ticket as the password, as PVE allows, so the password is not kept for the session.
     * A ticket that could not be renewed in time (a machine asleep for hours) needs a new connection.
     */
    private synchronized void ensureTicket() throws PveApiException {
        if (ticket != null && clock.millis() - ticketAt < TICKET_RENEWAL.toMillis()) {
            return;
        }
        PveCredentials.Password p = (PveCredentials.Password) credentials;
        if (ticket != null) {
            renew(p);
            return;
        }
        if (passwordDropped) {
            throw new PveApiException(PveApiException.Kind.AUTH, 401, "The Proxmox VE login of " + p.username()
                    + " has expired and GPUForge does not keep the password: connect again", Map.of(), null);
        }
        logins.incrementAndGet();
        JsonNode d = call("POST", "/access/ticket", Map.of("username", p.username(), "password", new String(p.password()),
                "new-format", "1"));
        if (PveValues.bool(d, "NeedTFA").orElse(false)) {
            if (p.totp().isEmpty()) {
                throw new PveApiException(PveApiException.Kind.AUTH, 401, "This account needs a second factor (TOTP):"
                        + " give the one-time code, or use an API token", Map.of(), null);
            }
            String challenge = PveValues.text(d, "ticket").orElse("");
            d = call("POST", "/access/ticket", Map.of("username", p.username(), "tfa-challenge", challenge,
                    "password", "totp:" + p.totp().get().get(), "new-format", "1"));
        }
        ticket = PveValues.text(d, "ticket").orElseThrow(() -> new PveApiException(PveApiException.Kind.PROTOCOL, 200,
                "The login answer has no ticket", Map.of(), null));
        csrf = PveValues.text(d, "CSRFPreventionToken").orElse("");
        ticketAt = clock.millis();
        java.util.Arrays.fill(p.password(), '\0');
        passwordDropped = true;
    }

    /** A new ticket for the current one (its own password), before it expires. */
    private void renew(PveCredentials.Password p) throws PveApiException {
        JsonNode d;
        try {
            d = call("POST", "/access/ticket", Map.of("username", p.username(), "password", ticket, "new-format", "1"));
        } catch (PveApiException e) {
            if (e.kind() == PveApiException.Kind.AUTH) {
                ticket = null;
                throw new PveApiException(PveApiException.Kind.AUTH, e.status(), "The Proxmox VE login of "
                        + p.username() + " has expired (its ticket could not be renewed within its 2 hours) and"
                        + " GPUForge does not keep the password: connect again", Map.of(), e);
            }
            throw e;
        }
        ticket = PveValues.text(d, "ticket").orElseThrow(() -> new PveApiException(PveApiException.Kind.PROTOCOL, 200,
                "The ticket renewal's answer has no ticket", Map.of(), null));
        csrf = PveValues.text(d, "CSRFPreventionToken").orElse(csrf);
        ticketAt = clock.millis();
        renewals.incrementAndGet();
    }

    /** Whether the password was dropped (once the first ticket was obtained). */
    boolean passwordDropped() {
        return passwordDropped;
    }

    /** Tickets renewed with a ticket so far. */
    int renewals() {
        return renewals.get();
    }
}
