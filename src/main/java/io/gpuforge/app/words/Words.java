package io.gpuforge.app.words;

import io.gpuforge.domain.message.Message;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.ResourceBundle;

/**
 * What the engines say ({@link Message}s), in one language: the diagnosis ({@code diagnose/messages*.properties}),
 * plans and their checks ({@code passthrough/messages*}) and a new VM's request ({@code vmcreate/messages*}). Each
 * key lives in one of them. Every pattern goes through {@link Message#format}, so an apostrophe is written
 * {@code ''}; a part that is empty in some cases is trimmed away with the blank before it.
 */
public final class Words {

    /** The bundles, by the key prefix test of the engines that say them. */
    public static final List<String> BUNDLES = List.of("diagnose.messages", "passthrough.messages",
            "vmcreate.messages");

    private final Locale locale;
    private final List<ResourceBundle> bundles = new ArrayList<>();

    public Words(Locale locale) {
        this.locale = locale;
        for (String name : BUNDLES) {
            bundles.add(load(name, locale));
        }
    }

    /** One bundle on its own (tests compare them key by key). */
    public static ResourceBundle load(String name, Locale locale) {
        return ResourceBundle.getBundle(name, locale, Words.class.getClassLoader(),
                ResourceBundle.Control.getNoFallbackControl(ResourceBundle.Control.FORMAT_PROPERTIES));
    }

    /** The message in this language; a key no bundle has shows as {@code !key!} (tests keep there being none). */
    public String text(Message m) {
        return m.format(locale, this::pattern);
    }

    private Optional<String> pattern(String key) {
        for (ResourceBundle b : bundles) {
            if (b.containsKey(key)) {
                return Optional.of(b.getString(key));
            }
        }
        return Optional.empty();
    }
}
