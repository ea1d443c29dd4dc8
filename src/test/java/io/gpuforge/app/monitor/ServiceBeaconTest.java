package io.gpuforge.app.monitor;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How the window tells a running gpuforge serve on its store from one that stopped, crashed or hangs. */
class ServiceBeaconTest {

    @TempDir
    Path dir;

    @Test
    void aRunningServiceIsLiveAndGoneOnceItStops() throws Exception {
        ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
        try {
            ServiceBeacon beacon = new ServiceBeacon(dir, Clock.systemUTC());
            assertThat(beacon.live()).isEmpty();
            ServiceBeacon.Announcement a = beacon.announce(Duration.ofSeconds(2), "http://127.0.0.1:9835/metrics",
                    timer);
            ServiceBeacon.Info i = beacon.live().orElseThrow();
            assertThat(i.pid()).isEqualTo(ProcessHandle.current().pid());
            assertThat(i.intervalMillis()).isEqualTo(2000);
            assertThat(i.prometheus()).isEqualTo("http://127.0.0.1:9835/metrics");
            a.close();
            assertThat(Files.exists(beacon.file())).isFalse();
            assertThat(beacon.live()).isEmpty();
        } finally {
            timer.shutdownNow();
        }
    }

    @Test
    void aBeaconWithoutItsProcessOrWithAnOldHeartbeatIsNotLive() throws Exception {
        ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
        try {
            new ServiceBeacon(dir, Clock.systemUTC()).announce(Duration.ofSeconds(1), "off", timer);
            timer.shutdownNow(); // killed: the heartbeat stops, the file stays
            Clock later = Clock.fixed(Instant.now().plusSeconds(16), ZoneOffset.UTC);
            assertThat(new ServiceBeacon(dir, later).live()).as("three beats missed").isEmpty();
            assertThat(new ServiceBeacon(dir, Clock.systemUTC()).live()).as("fresh, this process alive").isPresent();

            Process gone = new ProcessBuilder("true").start();
            gone.waitFor();
            String text = Files.readString(dir.resolve(ServiceBeacon.FILE));
            Files.writeString(dir.resolve(ServiceBeacon.FILE), text.replaceFirst("\"pid\":\\d+", "\"pid\":"
                    + gone.pid()));
            assertThat(new ServiceBeacon(dir, Clock.systemUTC()).live()).as("its process is gone").isEmpty();
            Files.writeString(dir.resolve(ServiceBeacon.FILE), "{not json");
            assertThat(new ServiceBeacon(dir, Clock.systemUTC()).live()).isEmpty();
        } finally {
            timer.shutdownNow();
        }
    }
}
