package io.gpuforge.app.desktop;

import io.gpuforge.bounded.ChildEnvironment;
import io.gpuforge.domain.telemetry.AlertEvent;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Alerts as desktop notifications while no window shows them ({@code gpuforge serve} in a desktop session: the user
 * service): {@code notify-send} over the session's D-Bus, where a session bus exists ({@code DBUS_SESSION_BUS_ADDRESS},
 * or the user's {@code /run/user/UID/bus}) and the program is installed; nothing otherwise (a server, the system
 * service), and {@link #why} says so. One at a time on {@code runner}, at most 5 s each.
 */
public final class DesktopNotifications implements Consumer<AlertEvent> {

    private static final Logger LOG = LoggerFactory.getLogger(DesktopNotifications.class);

    private final Optional<String> bus;
    private final Optional<Path> program;
    private final ProgramStarter starter;
    private final ExecutorService runner;

    public DesktopNotifications(Map<String, String> env, ProgramStarter starter, ExecutorService runner) {
        this.bus = sessionBus(env);
        this.program = onPath(env, "notify-send");
        this.starter = starter;
        this.runner = runner;
    }

    /** Whether notifications are shown. */
    public boolean available() {
        return bus.isPresent() && program.isPresent();
    }

    /** Where they go, or why there are none. */
    public String why() {
        if (bus.isEmpty()) {
            return "no desktop notifications: no session bus (DBUS_SESSION_BUS_ADDRESS)";
        }
        if (program.isEmpty()) {
            return "no desktop notifications: notify-send is not installed (apt install libnotify-bin)";
        }
        return "desktop notifications through " + program.get();
    }

    @Override
    public void accept(AlertEvent e) {
        if (!available()) {
            return;
        }
        runner.execute(() -> show(e));
    }

    private void show(AlertEvent e) {
        List<String> command = new ArrayList<>(List.of(program.get().toString(), "--app-name=GPUForge",
                "--icon=dialog-warning", "--urgency=" + (e.state() == AlertEvent.State.FIRED ? "critical" : "normal"),
                e.state() == AlertEvent.State.FIRED ? "GPU alert" : "GPU alert cleared", e.describe()));
        ProcessBuilder pb = ChildEnvironment.scrubbed(new ProcessBuilder(command)).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD);
        pb.environment().put("DBUS_SESSION_BUS_ADDRESS", bus.get());
        try {
            Process p = starter.start(pb);
            if (!p.waitFor(5, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                LOG.warn("notify-send did not end within 5 s; the alert is in the log only");
            } else if (p.exitValue() != 0) {
                LOG.warn("notify-send ended with {}; the alert is in the log only", p.exitValue());
            }
        } catch (IOException ex) {
            LOG.warn("Cannot show a desktop notification: {}", ex.getMessage());
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }

    static Optional<String> sessionBus(Map<String, String> env) {
        String address = env.get("DBUS_SESSION_BUS_ADDRESS");
        if (address != null && !address.isBlank()) {
            return Optional.of(address);
        }
        String runtime = env.get("XDG_RUNTIME_DIR");
        if (runtime != null && !runtime.isBlank() && Files.exists(Path.of(runtime, "bus"))) {
            return Optional.of("unix:path=" + Path.of(runtime, "bus"));
        }
        return Optional.empty();
    }

    private static Optional<Path> onPath(Map<String, String> env, String name) {
        String path = env.getOrDefault("PATH", "/usr/bin:/bin");
        for (String dir : path.split(File.pathSeparator)) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, name))) {
                return Optional.of(Path.of(dir, name));
            }
        }
        return Optional.empty();
    }
}
