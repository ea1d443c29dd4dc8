package io.gpuforge.app.host;

import java.util.Locale;

/** The desktop platform families GPUForge knows how to integrate with. */
public enum OsFamily {
    LINUX, WINDOWS, MAC, OTHER;

    public static OsFamily fromName(String osName) {
        String n = osName == null ? "" : osName.toLowerCase(Locale.ROOT);
        if (n.startsWith("linux")) {
            return LINUX;
        }
        if (n.startsWith("windows")) {
            return WINDOWS;
        }
        if (n.startsWith("mac") || n.startsWith("darwin")) {
            return MAC;
        }
        return OTHER;
    }

    public static OsFamily current() {
        return fromName(System.getProperty("os.name"));
    }
}
