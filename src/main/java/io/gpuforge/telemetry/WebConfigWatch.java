package io.gpuforge.telemetry;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The web configuration of a running endpoint, re-read when its file changes (looked at most once a second, as a
 * request or a TLS handshake asks), as Prometheus' exporter-toolkit does: users and passwords, certificate and key
 * files take effect without a restart. A change that cannot be read, or that would turn TLS on or off or leave a
 * non-loopback address without TLS and basic auth, is not taken: the previous configuration stays, and the log says
 * why, once per change.
 */
final class WebConfigWatch {

    private static final Logger LOG = LoggerFactory.getLogger(WebConfigWatch.class);
    private static final long CHECK_NANOS = 1_000_000_000L;

    private final Optional<Path> file;
    private final boolean loopback;
    private final LongSupplier nanos;
    private volatile WebConfig current;
    private String stamp;
    private long checked;

    private WebConfigWatch(Optional<Path> file, WebConfig first, boolean loopback, LongSupplier nanos) {
        this.file = file;
        this.current = first;
        this.loopback = loopback;
        this.nanos = nanos;
        this.stamp = file.map(WebConfigWatch::stampOf).orElse("");
        this.checked = nanos.getAsLong();
    }

    /** A configuration that never changes (none, or one given as a value). */
    static WebConfigWatch fixed(WebConfig web) {
        return new WebConfigWatch(Optional.empty(), web, true, System::nanoTime);
    }

    /** The file's configuration, watched from now on. */
    static WebConfigWatch of(Path file, WebConfig first, boolean loopback) {
        return new WebConfigWatch(Optional.of(file), first, loopback, System::nanoTime);
    }

    /** The configuration now: re-read first when the file changed since it was last looked at. */
    WebConfig current() {
        if (file.isEmpty()) {
            return current;
        }
        synchronized (this) {
            long now = nanos.getAsLong();
            if (now - checked < CHECK_NANOS) {
                return current;
            }
            checked = now;
            String s = stampOf(file.get());
            if (s.equals(stamp)) {
                return current;
            }
            stamp = s;
            WebConfig before = current;
            try {
                WebConfig next = WebConfig.read(file.get());
                if (next.tls() != before.tls()) {
                    LOG.warn("{} now turns TLS {}; that takes a restart of gpuforge serve, the previous configuration"
                            + " stays until then", file.get(), next.tls() ? "on" : "off");
                } else if (!loopback && !next.basicAuth()) {
                    LOG.warn("{} now has no basic_auth_users; a non-loopback address needs them, the previous"
                            + " configuration stays", file.get());
                } else {
                    current = next;
                    LOG.info("{} re-read: TLS {}, {} user(s)", file.get(), next.tls() ? "on" : "off",
                            next.users().size());
                }
            } catch (IOException | RuntimeException e) {
                LOG.warn("{} changed but cannot be read ({}); the previous configuration stays", file.get(),
                        e.getMessage());
            }
            return current;
        }
    }

    /**
     * A file's modification time and size ("" when it cannot be read: then the next change is looked at); the
     * certificate and key files are watched by it too ({@link ReloadingKeyManager}).
     */
    static String stampOf(Path p) {
        try {
            return Files.getLastModifiedTime(p).toMillis() + "/" + Files.size(p);
        } catch (IOException e) {
            return "";
        }
    }

    @Override
    public String toString() {
        return "WebConfigWatch[" + file.map(Objects::toString).orElse("fixed") + "]";
    }
}
