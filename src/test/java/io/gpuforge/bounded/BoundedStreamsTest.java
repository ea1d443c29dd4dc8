package io.gpuforge.bounded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.io.ByteArrayInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the user hands over is read up to its limit, and past it refused by name rather than filling the memory. */
class BoundedStreamsTest {

    @TempDir
    Path dir;

    @Test
    void aFileOrStreamWithinItsLimitIsReadWhole() throws Exception {
        Path f = Files.writeString(dir.resolve("listing.txt"), "IOMMU Group 1:\n\t01:00.0 VGA [0300]\n");
        assertThat(BoundedStreams.readString(f, 64)).startsWith("IOMMU Group 1:");
        assertThat(BoundedStreams.readAll(new ByteArrayInputStream(new byte[64]), "standard input", 64)).hasSize(64);
    }

    @Test
    void pastItsLimitItIsRefusedByName() throws Exception {
        Path f = Files.write(dir.resolve("big.json"), new byte[4097]);
        BoundedReadException e = catchThrowableOfType(() -> BoundedStreams.readString(f, 4096),
                BoundedReadException.class);
        assertThat(e.kind()).isEqualTo(BoundedReadException.Kind.TOO_LARGE);
        assertThat(e.getMessage()).isEqualTo(f + " holds more than 4 KiB, more than it can be; is it the right one?");
        BoundedReadException zero = catchThrowableOfType(() -> BoundedStreams.readAll(Path.of("/dev/zero"),
                1 << 20), BoundedReadException.class);
        assertThat(zero.getMessage()).startsWith("/dev/zero holds more than 1 MiB");
        BoundedReadException stdin = catchThrowableOfType(() -> BoundedStreams.readAll(new ByteArrayInputStream(
                new byte[100]), "standard input", 99), BoundedReadException.class);
        assertThat(stdin.source()).isEqualTo("standard input");
        assertThat(stdin.read()).isEqualTo(100);
    }
}
