package io.gpuforge.testing;

import java.io.File;
import org.junit.jupiter.api.Assumptions;

/** Command-line tools some tests need: skipped with a message when absent, a failure under CI=true. */
public final class Tools {

    private Tools() {
    }

    public static void require(String command, String aptPackage) {
        for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(File.pathSeparator)) {
            if (new File(dir, command).canExecute()) {
                return;
            }
        }
        String message = command + " is not installed: apt-get install " + aptPackage;
        if ("true".equals(System.getenv("CI"))) {
            throw new AssertionError(message);
        }
        Assumptions.abort(message);
    }
}
