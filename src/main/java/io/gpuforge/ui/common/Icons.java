package io.gpuforge.ui.common;

import org.kordamp.ikonli.Ikon;
import org.kordamp.ikonli.javafx.FontIcon;

/** Icons are Ikonli Feather glyphs; they take the text colour of the theme. */
public final class Icons {

    private Icons() {
    }

    public static FontIcon of(Ikon ikon) {
        FontIcon i = new FontIcon(ikon);
        i.getStyleClass().add("gf-icon");
        return i;
    }

    public static FontIcon of(Ikon ikon, int size) {
        FontIcon i = of(ikon);
        i.setIconSize(size);
        return i;
    }
}
