package io.gpuforge.ui.common;

import java.text.MessageFormat;
import java.util.Locale;
import java.util.MissingResourceException;
import java.util.Objects;
import java.util.ResourceBundle;
import javafx.beans.binding.Bindings;
import javafx.beans.binding.StringBinding;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.SimpleObjectProperty;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The UI's strings, from {@code i18n/messages*.properties}. Views bind to {@link #text} so a language
 * switch in preferences relabels the open windows at once. One instance, owned by the composition root.
 */
public final class I18n {

    public static final String BUNDLE = "i18n.messages";
    private static final Logger LOG = LoggerFactory.getLogger(I18n.class);

    private final ObjectProperty<Locale> locale = new SimpleObjectProperty<>();
    private final ObjectProperty<ResourceBundle> bundle = new SimpleObjectProperty<>();

    public I18n(Locale initial) {
        setLocale(initial);
    }

    /** Loads the bundle for exactly this locale, never falling back to the JVM's default locale. */
    public static ResourceBundle load(Locale l) {
        return ResourceBundle.getBundle(BUNDLE, l, I18n.class.getClassLoader(),
                ResourceBundle.Control.getNoFallbackControl(ResourceBundle.Control.FORMAT_PROPERTIES));
    }

    /** Switches language; the bundle changes before the locale, so listeners of either see the new strings. */
    public void setLocale(Locale l) {
        bundle.set(load(Objects.requireNonNull(l)));
        locale.set(l);
    }

    public Locale getLocale() {
        return locale.get();
    }

    public ReadOnlyObjectProperty<Locale> localeProperty() {
        return locale;
    }

    public ResourceBundle bundle() {
        return bundle.get();
    }

    /** The string for {@code key} in the current language, with {@link MessageFormat} arguments. */
    public String get(String key, Object... args) {
        String pattern;
        try {
            pattern = bundle.get().getString(key);
        } catch (MissingResourceException e) {
            LOG.warn("Missing UI string '{}' for {}", key, locale.get());
            return "!" + key + "!";
        }
        if (args.length == 0) {
            return pattern;
        }
        return new MessageFormat(pattern, locale.get()).format(args);
    }

    /** A binding that follows the language. */
    public StringBinding text(String key, Object... args) {
        return Bindings.createStringBinding(() -> get(key, args), bundle);
    }
}
