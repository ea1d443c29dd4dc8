package io.gpuforge.telemetry;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * A fake {@code nvidia-smi} (POSIX sh + awk) that answers {@code --query-gpu=… --format=… [-lms N]} from a recorded
 * capture, like the real one: the asked columns in the asked order, units dropped with {@code nounits}, unknown
 * fields refused, one round per interval until killed. Counts its starts in {@code starts}.
 */
public final class FakeNvidiaSmi {

    private FakeNvidiaSmi() {
    }

    /** Writes the fake into {@code dir}; returns its path. */
    public static Path write(Path dir, Path capture) throws IOException {
        Path awk = dir.resolve("fake-nvidia-smi.awk");
        try (InputStream in = FakeNvidiaSmi.class.getResourceAsStream("/telemetry/fake-nvidia-smi.awk")) {
            Files.write(awk, in.readAllBytes());
        }
        String script = "#!/bin/sh\n"
                + "q=; fmt=; lms=; prev=\n"
                + "for a in \"$@\"; do case \"$a\" in --query-gpu=*) q=\"${a#--query-gpu=}\";; --format=*) fmt=\"${a#--format=}\";; esac;"
                + " [ \"$prev\" = -lms ] && lms=\"$a\"; prev=\"$a\"; done\n"
                + "echo start >> '" + dir.resolve("starts") + "'\n"
                + "while true; do\n"
                + "  awk -v q=\"$q\" -v fmt=\"$fmt\" -f '" + awk + "' '" + capture + "' || exit 2\n"
                + "  [ -z \"$lms\" ] && exit 0\n"
                + "  sleep $(awk -v m=\"$lms\" 'BEGIN { printf \"%.3f\", m / 1000 }')\n"
                + "done\n";
        return executable(dir.resolve("nvidia-smi"), script);
    }

    /** A fake that prints one good row, then dies in the middle of the next line (kill -9 of itself). */
    static Path dyingMidLine(Path dir, String row) throws IOException {
        String script = "#!/bin/sh\necho start >> '" + dir.resolve("starts") + "'\n"
                + "printf '%s\\n' '" + row + "'\nprintf '%s' '0, NVIDIA GeForce RTX 40'\nkill -9 $$\n";
        return executable(dir.resolve("nvidia-smi-dying"), script);
    }

    static Path executable(Path p, String script) throws IOException {
        Files.writeString(p, script, StandardCharsets.UTF_8);
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
        return p;
    }

    public static int starts(Path dir) {
        Path s = dir.resolve("starts");
        try {
            return Files.exists(s) ? Files.readAllLines(s).size() : 0;
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
