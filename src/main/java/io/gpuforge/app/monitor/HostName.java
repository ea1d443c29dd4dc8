package io.gpuforge.app.monitor;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** This computer's name as alerts name it: /etc/hostname, else $HOSTNAME or %COMPUTERNAME%; no DNS look-up. */
public final class HostName {

    private HostName() {
    }

    public static String get() {
        Path etc = Path.of("/etc/hostname");
        if (Files.isRegularFile(etc)) {
            try (InputStream in = Files.newInputStream(etc)) {
                String name = new String(in.readNBytes(256), StandardCharsets.UTF_8).strip();
                if (!name.isEmpty() && !name.contains("\n")) {
                    return name;
                }
            } catch (IOException e) {
                // the variables below
            }
        }
        for (String v : new String[] {"HOSTNAME", "COMPUTERNAME"}) {
            String name = System.getenv(v);
            if (name != null && !name.isBlank()) {
                return name.strip();
            }
        }
        return "this computer";
    }
}
