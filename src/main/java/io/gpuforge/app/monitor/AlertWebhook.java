package io.gpuforge.app.monitor;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gpuforge.bounded.BoundedHttp;
import io.gpuforge.bounded.ReadLimits;
import io.gpuforge.domain.telemetry.AlertEvent;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Posts every fired and cleared alert as JSON to the webhook the settings name (Slack, Mattermost, Matrix hookshot,
 * ntfy and alike read {@code text}; the other fields are for scripts), with the bearer token of the secret store when
 * one is saved. At most {@link #PER_MINUTE} posts a minute: what goes over is counted and said in the next post
 * ({@code suppressed}). A post that fails (no answer, 429, 5xx) is tried again after 1, 2, 4, 8 and 16 s; then it is
 * logged and dropped. Never blocks the caller: posts go out on {@code timer}.
 */
public final class AlertWebhook implements Consumer<AlertEvent> {

    /** The secret store's key of the webhook's bearer token. */
    public static final String TOKEN_KEY = "alert-webhook-token";
    public static final int PER_MINUTE = 12;
    static final List<Duration> RETRIES = List.of(Duration.ofSeconds(1), Duration.ofSeconds(2), Duration.ofSeconds(4),
            Duration.ofSeconds(8), Duration.ofSeconds(16));
    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    /** Alerts on their way at once (first post or a retry); more are dropped and counted, not queued for ever. */
    public static final int MAX_PENDING = 16;
    /** Posts that go out side by side: a receiver that hangs holds one of them, not the alerts behind it. */
    public static final int POSTS = 4;
    private static final Logger LOG = LoggerFactory.getLogger(AlertWebhook.class);

    /** The bearer token, read when a post goes out; empty: none. */
    @FunctionalInterface
    public interface Token {
        Optional<char[]> read() throws Exception;
    }

    private final Supplier<Optional<String>> url;
    private final Token token;
    private final ScheduledExecutorService timer;
    private final Clock clock;
    private final String hostName;
    private final List<Duration> retries;
    private final ReadLimits answer;
    private final HttpClient http;
    private final ObjectMapper json = new ObjectMapper();
    private final Deque<Long> sent = new ArrayDeque<>();
    private final AtomicLong delivered = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private final AtomicLong dropped = new AtomicLong();
    private final java.util.concurrent.atomic.AtomicInteger pending = new java.util.concurrent.atomic.AtomicInteger();
    private long suppressed;
    private long suppressedTotal;

    public AlertWebhook(Supplier<Optional<String>> url, Token token, ScheduledExecutorService timer, Clock clock,
                        String hostName) {
        this(url, token, timer, clock, hostName, RETRIES, TIMEOUT);
    }

    AlertWebhook(Supplier<Optional<String>> url, Token token, ScheduledExecutorService timer, Clock clock,
                 String hostName, List<Duration> retries) {
        this(url, token, timer, clock, hostName, retries, TIMEOUT);
    }

    /** With the time a post may take (connecting, and the answer's headers and body, each). */
    AlertWebhook(Supplier<Optional<String>> url, Token token, ScheduledExecutorService timer, Clock clock,
                 String hostName, List<Duration> retries, Duration timeout) {
        this.answer = new ReadLimits(timeout, 64 * 1024);
        this.http = HttpClient.newBuilder().connectTimeout(timeout).followRedirects(HttpClient.Redirect.NEVER).build();
        this.url = url;
        this.token = token;
        this.timer = timer;
        this.clock = clock;
        this.hostName = hostName;
        this.retries = retries;
    }

    @Override
    public void accept(AlertEvent e) {
        Optional<String> to = url.get();
        if (to.isEmpty()) {
            return;
        }
        long skipped;
        synchronized (this) {
            long now = clock.millis();
            while (!sent.isEmpty() && now - sent.peekFirst() >= 60_000) {
                sent.removeFirst();
            }
            if (sent.size() >= PER_MINUTE) {
                suppressed++;
                suppressedTotal++;
                return;
            }
            sent.addLast(now);
            skipped = suppressed;
            suppressed = 0;
        }
        if (pending.incrementAndGet() > MAX_PENDING) {
            pending.decrementAndGet();
            if (dropped.incrementAndGet() % MAX_PENDING == 1) {
                LOG.warn("Alert webhook {}: {} alerts are still on their way (the receiver does not take them); this"
                        + " one and the next are dropped until they go ({} dropped so far)", redacted(to.get()),
                        MAX_PENDING, dropped.get());
            }
            return;
        }
        byte[] body = body(e, skipped);
        timer.execute(() -> attempt(to.get(), body, 0));
    }

    /**
     * The pool posts go out on: {@value #POSTS} threads (daemons) that also time the retries. Its queue holds at
     * most {@value #MAX_PENDING} alerts of a webhook, since {@link #accept} drops what is beyond.
     */
    public static ScheduledExecutorService postThreads() {
        java.util.concurrent.atomic.AtomicInteger n = new java.util.concurrent.atomic.AtomicInteger();
        return java.util.concurrent.Executors.newScheduledThreadPool(POSTS, r -> {
            Thread t = new Thread(r, "gpuforge-alert-webhook-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
    }

    /** Alerts posted, posts that failed for good, alerts left out by the rate limit, since the start. */
    public long delivered() {
        return delivered.get();
    }

    public long failed() {
        return failed.get();
    }

    /** Alerts dropped because {@value #MAX_PENDING} were still on their way. */
    public long dropped() {
        return dropped.get();
    }

    /** Alerts on their way now. */
    public int pending() {
        return pending.get();
    }

    public synchronized long suppressed() {
        return suppressedTotal;
    }

    /**
     * Posts a test message now, once, and says how it went: the receiver's status, or why there was none (for the
     * window's "Send a test" and {@code gpuforge alert webhook --test}). Blocking.
     */
    public String test(String to) throws IOException, InterruptedException {
        ObjectNode n = json.createObjectNode();
        n.put("text", "GPUForge on " + hostName + ": a test of the alert webhook");
        n.put("title", "GPUForge test");
        n.put("state", "test");
        n.put("host", hostName);
        n.put("at", clock.instant().toString());
        int status;
        try {
            status = post(to, json.writeValueAsBytes(n));
        } catch (IOException e) {
            // where it went, without the URL's secret, and what happened
            throw new IOException(redacted(to) + ": " + e.getClass().getSimpleName()
                    + (e.getMessage() == null ? "" : ": " + e.getMessage()), e);
        }
        if (status / 100 != 2) {
            throw new IOException(redacted(to) + " answered HTTP " + status);
        }
        return redacted(to) + " answered HTTP " + status;
    }

    private void attempt(String to, byte[] body, int tried) {
        String why;
        boolean again;
        try {
            int status = post(to, body);
            if (status / 100 == 2) {
                delivered.incrementAndGet();
                pending.decrementAndGet();
                return;
            }
            why = "HTTP " + status;
            again = status == 429 || status >= 500;
        } catch (IOException e) {
            why = e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
            again = true;
        } catch (InterruptedException e) {
            pending.decrementAndGet();
            Thread.currentThread().interrupt();
            return;
        } catch (RuntimeException e) {
            why = e.toString();
            again = false;
        }
        if (again && tried < retries.size()) {
            LOG.info("Alert webhook {}: {}; trying again in {} s", redacted(to), why, retries.get(tried).toSeconds());
            timer.schedule(() -> attempt(to, body, tried + 1), retries.get(tried).toMillis(), TimeUnit.MILLISECONDS);
            return;
        }
        failed.incrementAndGet();
        pending.decrementAndGet();
        LOG.warn("Alert webhook {}: {}; the alert was not delivered{}", redacted(to), why,
                again ? " after " + (tried + 1) + " tries" : "");
    }

    /** The receiver's status; its answer is read within 10 s and 64 KiB (and dropped). */
    private int post(String to, byte[] body) throws IOException, InterruptedException {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(to)).timeout(answer.deadline())
                .header("Content-Type", "application/json").header("User-Agent", "GPUForge")
                .POST(HttpRequest.BodyPublishers.ofByteArray(body));
        Optional<char[]> t;
        try {
            t = token.read();
        } catch (Exception e) {
            throw new IOException("its token cannot be read from the secret store: " + e.getMessage(), e);
        }
        if (t.isPresent()) {
            b.header("Authorization", "Bearer " + new String(t.get()));
            Arrays.fill(t.get(), '\0');
        }
        return BoundedHttp.send(http, b.build(), "the alert webhook " + redacted(to), answer).status();
    }

    /**
     * Why a bearer token must not go to {@code url}: plain http to a host other than this computer, where anyone on
     * the way reads it; empty when it may (https, or http on loopback).
     */
    public static Optional<String> tokenInClear(String url) {
        try {
            URI u = URI.create(url.strip());
            String host = u.getHost() == null ? "" : u.getHost();
            boolean loopback = host.equals("localhost") || host.startsWith("127.") || host.equals("[::1]")
                    || host.equals("::1");
            if ("http".equalsIgnoreCase(u.getScheme()) && !loopback) {
                return Optional.of("the bearer token goes over plain http to " + redacted(url) + ": anyone on the way"
                        + " can read it; use an https URL");
            }
            return Optional.empty();
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    /**
     * A webhook's URL as logs, errors and outputs may show it: its scheme and host, and {@code /…} for a path or query,
     * which carry the secret of Slack-style hooks ({@code /services/T…/B…/XXXX}, {@code ?token=…}); user info is left
     * out too. Something that is no URL is shown as {@code (a webhook URL)}.
     */
    public static String redacted(String url) {
        try {
            URI u = URI.create(url.strip());
            if (u.getScheme() == null || u.getHost() == null) {
                return "(a webhook URL)";
            }
            boolean more = (u.getRawPath() != null && !u.getRawPath().isEmpty() && !u.getRawPath().equals("/"))
                    || u.getRawQuery() != null || u.getRawFragment() != null;
            return u.getScheme() + "://" + u.getHost() + (u.getPort() >= 0 ? ":" + u.getPort() : "") + (more ? "/…"
                    : "");
        } catch (IllegalArgumentException e) {
            return "(a webhook URL)";
        }
    }

    private byte[] body(AlertEvent e, long skipped) {
        ObjectNode n = json.createObjectNode();
        boolean fired = e.state() == AlertEvent.State.FIRED;
        n.put("text", "GPUForge on " + hostName + ": " + e.describe()
                + (skipped > 0 ? " (and " + skipped + " more alerts over the rate limit before it)" : ""));
        n.put("title", fired ? "GPU alert fired" : "GPU alert cleared");
        n.put("state", fired ? "fired" : "cleared");
        n.put("gpu", e.gpu().toString());
        n.put("gpuName", e.gpuName());
        n.put("rule", e.rule().describe());
        if (e.value().isPresent()) {
            n.put("value", e.value().getAsDouble());
        }
        n.put("at", e.at().toString());
        n.put("host", hostName);
        n.put("suppressed", skipped);
        try {
            return json.writeValueAsBytes(n);
        } catch (IOException ex) {
            throw new IllegalStateException(ex);
        }
    }
}
