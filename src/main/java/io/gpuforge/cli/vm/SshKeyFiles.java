package io.gpuforge.cli.vm;

import io.gpuforge.bounded.BoundedStreams;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The public keys in the files given with {@code --ssh-key}: one per line, blank lines and comments skipped. */
final class SshKeyFiles {

    /** An authorized_keys file of a few hundred keys is far below this; a wrong file (an image, a log) is not. */
    static final long MAX_BYTES = 1 << 20;

    private SshKeyFiles() {
    }

    static List<String> read(List<Path> files) throws IOException {
        List<String> keys = new ArrayList<>();
        for (Path f : files) {
            BoundedStreams.readString(f, MAX_BYTES).lines().map(String::strip)
                    .filter(l -> !l.isEmpty() && !l.startsWith("#")).forEach(keys::add);
        }
        return keys;
    }
}
