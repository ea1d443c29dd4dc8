package io.gpuforge.app.settings;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * What the window's first frame needs from the settings (theme, language, size and place, the tree's width), read
 * cheaply before anything else: a streaming pass over the installation's {@code defaults.json} and {@code site.json}
 * and the user's {@code settings.json}, in that order, as {@link SettingsStore} layers them, without the object
 * mapper. A file that cannot be read is skipped here; the {@link SettingsStore} made after the first frame reports it
 * and keeps it aside. Immutable.
 */
public record FirstFrameSettings(ThemeChoice theme, LanguageChoice language, WindowBounds window,
                                 Double navigationDivider) {

    private static final JsonFactory JSON = new JsonFactory();

    public FirstFrameSettings {
        theme = theme == null ? ThemeChoice.SYSTEM : theme;
        language = language == null ? LanguageChoice.SYSTEM : language;
    }

    /** The layers under and in {@code userFile}; values that do not fit (an unknown theme) keep the layer below. */
    public static FirstFrameSettings read(Path userFile, Optional<Path> installConfigDir) {
        FirstFrameSettings s = new FirstFrameSettings(null, null, null, null);
        if (installConfigDir.isPresent()) {
            s = s.over(installConfigDir.get().resolve(SettingsDefaults.SHIPPED_FILE));
            s = s.over(installConfigDir.get().resolve(SettingsDefaults.SITE_FILE));
        }
        return s.over(userFile);
    }

    private FirstFrameSettings over(Path file) {
        if (!Files.isRegularFile(file)) {
            return this;
        }
        try (JsonParser p = JSON.createParser(file.toFile())) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return this;
            }
            ThemeChoice t = theme;
            LanguageChoice l = language;
            WindowBounds w = window;
            Double divider = navigationDivider;
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String name = p.getCurrentName();
                JsonToken value = p.nextToken();
                switch (name) {
                    case "theme" -> t = constant(ThemeChoice.class, p, t);
                    case "language" -> l = constant(LanguageChoice.class, p, l);
                    case "window" -> w = value == JsonToken.START_OBJECT ? bounds(p) : null;
                    case "navigationDivider" -> divider = value.isNumeric() && p.getDoubleValue() > 0.05
                            && p.getDoubleValue() < 0.95 ? p.getDoubleValue() : null;
                    default -> p.skipChildren();
                }
            }
            return new FirstFrameSettings(t, l, w, divider);
        } catch (IOException | IllegalArgumentException e) {
            return this;
        }
    }

    private static <E extends Enum<E>> E constant(Class<E> type, JsonParser p, E fallback) throws IOException {
        if (p.currentToken() != JsonToken.VALUE_STRING) {
            p.skipChildren();
            return fallback;
        }
        try {
            return Enum.valueOf(type, p.getText());
        } catch (IllegalArgumentException unknown) {
            return fallback;
        }
    }

    private static WindowBounds bounds(JsonParser p) throws IOException {
        double x = Double.NaN;
        double y = Double.NaN;
        double width = Double.NaN;
        double height = Double.NaN;
        boolean maximized = false;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.getCurrentName();
            JsonToken value = p.nextToken();
            double d = value.isNumeric() ? p.getDoubleValue() : Double.NaN;
            switch (name) {
                case "x" -> x = d;
                case "y" -> y = d;
                case "width" -> width = d;
                case "height" -> height = d;
                case "maximized" -> maximized = value == JsonToken.VALUE_TRUE;
                default -> p.skipChildren();
            }
        }
        return Double.isFinite(x) && Double.isFinite(y) ? new WindowBounds(x, y, width, height, maximized) : null;
    }
}
