package io.gpuforge.app;

import io.gpuforge.bounded.ChildEnvironment;
import io.gpuforge.app.host.OsFamily;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * Reads whether the desktop prefers a dark colour scheme. JavaFX 21 has no API for it, so we ask the
 * platform: GNOME/GTK {@code color-scheme} and theme name on Linux (and {@code GTK_THEME}), the
 * {@code AppsUseLightTheme} registry value on Windows, {@code AppleInterfaceStyle} on macOS.
 * Empty when it cannot tell. Runs helper processes, so call it off the FX thread.
 */
public final class OsAppearance {

    private final OsFamily os;
    private final Map<String, String> env;
    private final Function<List<String>, Optional<String>> runner;

    public OsAppearance(OsFamily os, Map<String, String> env, Function<List<String>, Optional<String>> runner) {
        this.os = os;
        this.env = env;
        this.runner = runner;
    }

    public static OsAppearance system() {
        return new OsAppearance(OsFamily.current(), System.getenv(), OsAppearance::run);
    }

    public Optional<Boolean> prefersDark() {
        switch (os) {
            case LINUX: {
                String gtkTheme = env.get("GTK_THEME");
                if (gtkTheme != null && !gtkTheme.isBlank()) {
                    return Optional.of(gtkTheme.toLowerCase(Locale.ROOT).contains("dark"));
                }
                Optional<String> scheme = runner.apply(
                        List.of("gsettings", "get", "org.gnome.desktop.interface", "color-scheme"));
                if (scheme.isPresent()) {
                    String s = scheme.get().toLowerCase(Locale.ROOT);
                    if (s.contains("prefer-dark")) {
                        return Optional.of(true);
                    }
                    if (s.contains("prefer-light")) {
                        return Optional.of(false);
                    }
                }
                return runner.apply(List.of("gsettings", "get", "org.gnome.desktop.interface", "gtk-theme"))
                        .map(t -> t.toLowerCase(Locale.ROOT).contains("dark"));
            }
            case WINDOWS:
                return runner.apply(List.of("reg", "query",
                                "HKCU\\Software\\Microsoft\\Windows\\CurrentVersion\\Themes\\Personalize",
                                "/v", "AppsUseLightTheme"))
                        .flatMap(OsAppearance::parseRegDword).map(v -> v == 0);
            case MAC:
                // The key exists only in dark mode; "does not exist" (non-zero exit) means light.
                return Optional.of(runner.apply(List.of("defaults", "read", "-g", "AppleInterfaceStyle"))
                        .map(s -> s.strip().equalsIgnoreCase("dark")).orElse(false));
            default:
                return Optional.empty();
        }
    }

    static Optional<Integer> parseRegDword(String output) {
        for (String line : output.split("\\R")) {
            String[] parts = line.strip().split("\\s+");
            if (parts.length == 3 && parts[0].equals("AppsUseLightTheme") && parts[2].startsWith("0x")) {
                try {
                    return Optional.of(Integer.parseInt(parts[2].substring(2), 16));
                } catch (NumberFormatException e) {
                    return Optional.empty();
                }
            }
        }
        return Optional.empty();
    }

    /** Runs a helper for at most two seconds; its output when it exits 0, else empty. */
    static Optional<String> run(List<String> command) {
        try {
            Process p = ChildEnvironment.scrubbed(new ProcessBuilder(command)).redirectErrorStream(true).start();
            p.getOutputStream().close();
            try (InputStream in = p.getInputStream()) {
                if (!p.waitFor(2, TimeUnit.SECONDS)) {
                    p.destroyForcibly();
                    return Optional.empty();
                }
                String out = new String(in.readNBytes(64 * 1024), StandardCharsets.UTF_8);
                return p.exitValue() == 0 ? Optional.of(out) : Optional.empty();
            }
        } catch (IOException e) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }
}
