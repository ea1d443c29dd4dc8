package io.gpuforge.app.settings;

import java.util.Locale;

/** The languages GPUForge ships, plus "follow the operating system". */
public enum LanguageChoice {
    SYSTEM(null),
    ENGLISH(Locale.ENGLISH),
    CHINESE_SIMPLIFIED(Locale.SIMPLIFIED_CHINESE);

    private final Locale locale;

    LanguageChoice(Locale locale) {
        this.locale = locale;
    }

    /** The locale to display, resolving {@link #SYSTEM} against the OS locale. */
    public Locale resolve(Locale osLocale) {
        if (locale != null) {
            return locale;
        }
        return isSimplifiedChinese(osLocale) ? Locale.SIMPLIFIED_CHINESE : Locale.ENGLISH;
    }

    static boolean isSimplifiedChinese(Locale l) {
        if (l == null || !"zh".equals(l.getLanguage())) {
            return false;
        }
        String script = l.getScript();
        if ("Hant".equals(script)) {
            return false;
        }
        String country = l.getCountry();
        // zh-TW, zh-HK and zh-MO read Traditional Chinese; we ship only Simplified, so they get English.
        return !("TW".equals(country) || "HK".equals(country) || "MO".equals(country));
    }
}
