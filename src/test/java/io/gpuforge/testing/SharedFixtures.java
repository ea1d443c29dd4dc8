package io.gpuforge.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;

/**
 * The real-world fixtures in {@code ../shared/fixtures}. Absent on a developer's machine they skip the
 * test with a message; under CI=true their absence fails it.
 */
public final class SharedFixtures {

    private SharedFixtures() {
    }

    public static Path dir() {
        return Path.of(System.getProperty("gpuforge.shared", "../shared"), "fixtures");
    }

    public static byte[] read(String relative) throws IOException {
        Path p = dir().resolve(relative);
        if (!Files.isReadable(p)) {
            String message = "shared fixture " + p + " is missing: check out ../shared beside the project";
            if ("true".equals(System.getenv("CI"))) {
                throw new AssertionError(message);
            }
            Assumptions.abort(message);
        }
        return Files.readAllBytes(p);
    }
}
