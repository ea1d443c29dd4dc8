package io.gpuforge.app.desktop;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.domain.telemetry.AlertEvent;
import io.gpuforge.domain.telemetry.AlertRule;
import io.gpuforge.domain.telemetry.GpuId;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Alerts as desktop notifications where a session bus exists: notify-send (here a stand-in on PATH that records what
 * it was given: the real one needs a notification daemon on a session bus) gets the alert's words and urgency.
 */
class DesktopNotificationsTest {

    @TempDir
    Path dir;

    private static final AlertEvent HOT = new AlertEvent(AlertRule.of(Optional.empty(), AlertRule.Kind.TEMPERATURE,
            85, Duration.ZERO), new GpuId("local", "0000:01:00.0"), "RTX 4090", AlertEvent.State.FIRED,
            System.currentTimeMillis(), OptionalDouble.of(91));

    @Test
    void anAlertIsShownThroughNotifySendOnTheSessionBus() throws Exception {
        Path bin = Files.createDirectories(dir.resolve("bin"));
        Path args = dir.resolve("args");
        Path notify = bin.resolve("notify-send");
        Files.writeString(notify, "#!/bin/sh\nfor a in \"$@\"; do echo \"$a\"; done > '" + args + "'\n"
                + "echo \"$DBUS_SESSION_BUS_ADDRESS\" >> '" + args + "'\n");
        Files.setPosixFilePermissions(notify, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path runtime = Files.createDirectories(dir.resolve("run-user"));
        Files.createFile(runtime.resolve("bus"));
        ExecutorService runner = Executors.newSingleThreadExecutor();
        try {
            DesktopNotifications n = new DesktopNotifications(Map.of("PATH", bin.toString(), "XDG_RUNTIME_DIR",
                    runtime.toString()), ProgramStarter.direct(), runner);
            assertThat(n.available()).isTrue();
            assertThat(n.why()).contains(notify.toString());
            n.accept(HOT);
            runner.shutdown();
            assertThat(runner.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
            assertThat(Files.readAllLines(args)).isEqualTo(List.of("--app-name=GPUForge", "--icon=dialog-warning",
                    "--urgency=critical", "GPU alert", HOT.describe(), "unix:path=" + runtime.resolve("bus")));
        } finally {
            runner.shutdownNow();
        }
    }

    @Test
    void withoutASessionBusOrNotifySendNothingIsShownAndItSaysWhy() {
        ExecutorService runner = Executors.newSingleThreadExecutor();
        try {
            DesktopNotifications server = new DesktopNotifications(Map.of("PATH", "/usr/bin:/bin"),
                    ProgramStarter.direct(), runner);
            assertThat(server.available()).isFalse();
            assertThat(server.why()).contains("no session bus");
            DesktopNotifications bare = new DesktopNotifications(Map.of("PATH", dir.toString(),
                    "DBUS_SESSION_BUS_ADDRESS", "unix:path=/run/user/1000/bus"), ProgramStarter.direct(), runner);
            assertThat(bare.available()).isFalse();
            assertThat(bare.why()).contains("notify-send is not installed");
            bare.accept(HOT); // nothing to run, nothing thrown
        } finally {
            runner.shutdownNow();
        }
    }
}
