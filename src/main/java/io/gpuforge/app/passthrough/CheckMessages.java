package io.gpuforge.app.passthrough;

import io.gpuforge.domain.passthrough.Check;
import java.text.MessageFormat;
import java.util.Locale;
import java.util.MissingResourceException;
import java.util.Optional;
import java.util.ResourceBundle;

/** Plain-language texts of the checks, in English and Simplified Chinese. */
public final class CheckMessages {

    private final ResourceBundle bundle;
    private final Locale locale;

    public CheckMessages(Locale locale) {
        this.locale = locale;
        this.bundle = ResourceBundle.getBundle("passthrough.messages", locale, CheckMessages.class.getClassLoader(),
                ResourceBundle.Control.getNoFallbackControl(ResourceBundle.Control.FORMAT_PROPERTIES));
    }

    public String message(Check c) {
        return format(c.key(), c.args().toArray());
    }

    /** The fix for a check that did not pass, when one is known. */
    public Optional<String> fix(Check c) {
        if (c.status() == Check.Status.PASS || !bundle.containsKey(c.key() + ".fix")) {
            return Optional.empty();
        }
        return Optional.of(format(c.key() + ".fix", c.args().toArray()));
    }

    public String format(String key, Object... args) {
        try {
            String pattern = bundle.getString(key);
            return args.length == 0 ? pattern : new MessageFormat(pattern, locale).format(args);
        } catch (MissingResourceException e) {
            return key;
        }
    }

    public ResourceBundle bundle() {
        return bundle;
    }
}
