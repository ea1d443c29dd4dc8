package io.gpuforge.arch;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every package of the product says in its {@code package-info.java} what it is for (docs/architecture.md points a
 * newcomer there), so a package added later comes with its sentence.
 */
class PackageDocsTest {

    @Test
    void everyPackageWithClassesHasAPackageInfoThatSaysSomething() throws IOException {
        Path root = Path.of("src/main/java");
        List<Path> packages;
        try (Stream<Path> dirs = Files.walk(root)) {
            packages = dirs.filter(Files::isDirectory).filter(PackageDocsTest::hasClasses).toList();
        }
        assertThat(packages).as("packages found").hasSizeGreaterThan(40);
        for (Path p : packages) {
            Path info = p.resolve("package-info.java");
            assertThat(info).as(root.relativize(p) + " has no package-info.java").exists();
            String text = Files.readString(info);
            assertThat(text).as(info.toString()).startsWith("/**").contains("package io.gpuforge.");
            assertThat(text.substring(3, text.indexOf("*/")).replaceAll("[\\s*]", "")).as(info + " says nothing")
                    .hasSizeGreaterThan(20);
        }
    }

    private static boolean hasClasses(Path dir) {
        try (Stream<Path> files = Files.list(dir)) {
            return files.anyMatch(f -> f.toString().endsWith(".java") && !f.endsWith("package-info.java"));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
