package io.gpuforge.ui.common;

import java.text.MessageFormat;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.MissingResourceException;
import java.util.Objects;
import java.util.ResourceBundle;
import java.util.Set;
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
    /**
     * The bundles of the UI, one per feature so features do not share a file: {@code i18n/<name>.properties} and
     * {@code i18n/<name>_zh_CN.properties}. A key lives in exactly one of them (a test checks).
     */
    public static final List<String> BUNDLES = List.of(
            BUNDLE,
            "i18n.sshlogin",
            "i18n.vmcreate",
            "i18n.monitor",
            "i18n.passthrough",
            "i18n.welcome",
            "i18n.console",
            "i18n.startup",
            "i18n.diagnose",
            "i18n.share");
    private static final Logger LOG = LoggerFactory.getLogger(I18n.class);

    private final ObjectProperty<Locale> locale = new SimpleObjectProperty<>();
    private final ObjectProperty<ResourceBundle> bundle = new SimpleObjectProperty<>();

    public I18n(Locale initial) {
        setLocale(initial);
    }

    /** Loads the bundles for exactly this locale, never falling back to the JVM's default locale, as one. */
    public static ResourceBundle load(Locale l) {
        List<ResourceBundle> parts = new ArrayList<>();
        for (String name : BUNDLES) {
            parts.add(loadOne(name, l));
        }
        return new Combined(parts, l);
    }

    /** One feature's bundle (tests check each bundle on its own). */
    public static ResourceBundle loadOne(String name, Locale l) {
        return ResourceBundle.getBundle(name, l, I18n.class.getClassLoader(),
                ResourceBundle.Control.getNoFallbackControl(ResourceBundle.Control.FORMAT_PROPERTIES));
    }

    /** The feature bundles seen as one. */
    private static final class Combined extends ResourceBundle {
        private final List<ResourceBundle> parts;
        private final Locale locale;

        Combined(List<ResourceBundle> parts, Locale locale) {
            this.parts = List.copyOf(parts);
            this.locale = parts.isEmpty() ? locale : parts.get(0).getLocale();
        }

        @Override
        protected Object handleGetObject(String key) {
            for (ResourceBundle b : parts) {
                if (b.containsKey(key)) {
                    return b.getObject(key);
                }
            }
            return null;
        }

        @Override
        public Enumeration<String> getKeys() {
            Set<String> all = new LinkedHashSet<>();
            parts.forEach(b -> all.addAll(b.keySet()));
            return Collections.enumeration(all);
        }

        @Override
        public Locale getLocale() {
            return locale;
        }
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
