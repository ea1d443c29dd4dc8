package io.gpuforge.app.settings;

/** Which colour scheme the user asked for. */
public enum ThemeChoice {
    /** Follow the operating system's light/dark preference where it can be read. */
    SYSTEM,
    LIGHT,
    DARK
}
