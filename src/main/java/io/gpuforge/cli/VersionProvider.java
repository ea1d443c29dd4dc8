package io.gpuforge.cli;

import picocli.CommandLine;

/** Version from the jar manifest (set by the build), or "development" when run from classes. */
public final class VersionProvider implements CommandLine.IVersionProvider {

    public static String version() {
        String v = VersionProvider.class.getPackage().getImplementationVersion();
        return v == null ? "development" : v;
    }

    @Override
    public String[] getVersion() {
        return new String[] {"gpuforge " + version(),
            "Java " + System.getProperty("java.version") + " (" + System.getProperty("java.vendor") + "), "
                + System.getProperty("os.name") + " " + System.getProperty("os.arch")};
    }
}
