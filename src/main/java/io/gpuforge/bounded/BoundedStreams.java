package io.gpuforge.bounded;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Files and streams the user hands over (a listing file or stdin, a template to import, a key, a host's sysfs file,
 * a configuration file), read whole up to a byte limit: past it, a {@link BoundedReadException} naming the source
 * and the limit instead of the memory filling up ({@code --listing /dev/zero}, a multi-gigabyte file picked by
 * mistake).
 */
public final class BoundedStreams {

    private BoundedStreams() {
    }

    /** Every byte of {@code in} up to {@code maxBytes}; {@code source} names it in the error. */
    public static byte[] readAll(InputStream in, String source, long maxBytes) throws IOException {
        ReadLimits limits = ReadLimits.size(maxBytes);
        byte[] bytes = in.readNBytes((int) Math.min(Integer.MAX_VALUE - 8, maxBytes + 1));
        if (bytes.length > maxBytes) {
            throw new BoundedReadException(source, BoundedReadException.Kind.TOO_LARGE, limits, bytes.length,
                    source + " holds more than " + limits.sizeText() + ", more than it can be; is it the right one?");
        }
        return bytes;
    }

    /** A file's bytes up to {@code maxBytes}. */
    public static byte[] readAll(Path file, long maxBytes) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            return readAll(in, file.toString(), maxBytes);
        }
    }

    /** A file's text (UTF-8) up to {@code maxBytes}. */
    public static String readString(Path file, long maxBytes) throws IOException {
        return new String(readAll(file, maxBytes), StandardCharsets.UTF_8);
    }
}
