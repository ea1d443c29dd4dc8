package io.gpuforge.app.diagnose;

import io.gpuforge.domain.Message;
import java.text.MessageFormat;
import java.util.List;
import java.util.Locale;
import java.util.MissingResourceException;
import java.util.ResourceBundle;
import java.util.stream.Collectors;

/**
 * The diagnosis's words in one language, from {@code diagnose/messages*.properties}: what the engine found (causes,
 * their explanations and fixes, why nothing was found) and what was read. Every pattern goes through
 * {@link MessageFormat}, so an apostrophe is written {@code ''} in the bundles; a part that is empty in some cases is
 * trimmed away with the blank before it.
 */
public final class DiagnosisText {

    public static final String BUNDLE = "diagnose.messages";
    /** The key of the text between the items of a list argument ("; " in English). */
    static final String SEPARATOR = "separator";

    private final ResourceBundle bundle;
    private final Locale locale;

    public DiagnosisText(Locale locale) {
        this.locale = locale;
        this.bundle = ResourceBundle.getBundle(BUNDLE, locale, DiagnosisText.class.getClassLoader(),
                ResourceBundle.Control.getNoFallbackControl(ResourceBundle.Control.FORMAT_PROPERTIES));
    }

    /** The message in this language; a key the bundle lacks shows as {@code !key!} (a test keeps there being none). */
    public String text(Message m) {
        String pattern;
        try {
            pattern = bundle.getString(m.key());
        } catch (MissingResourceException e) {
            return "!" + m.key() + "!";
        }
        Object[] args = m.args().stream().map(this::arg).toArray();
        return new MessageFormat(pattern, locale).format(args).strip();
    }

    public ResourceBundle bundle() {
        return bundle;
    }

    private Object arg(Object a) {
        if (a instanceof Message m) {
            return text(m);
        }
        if (a instanceof List<?> list) {
            String separator = bundle.getString(SEPARATOR);
            return list.stream().map(x -> text((Message) x)).collect(Collectors.joining(separator));
        }
        return a;
    }
}
