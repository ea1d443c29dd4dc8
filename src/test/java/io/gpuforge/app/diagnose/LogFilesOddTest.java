package io.gpuforge.app.diagnose;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.gpuforge.domain.diagnose.Collected;
import io.gpuforge.domain.diagnose.Diagnosis;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code diagnose --log} given what is not a plain file with a size (issue 59, finding 9): a FIFO nobody writes to is
 * given up with a reason instead of blocking for ever, and a {@code /proc} file, whose size reads 0, is read to its end.
 */
class LogFilesOddTest {

    private static final Supplier<InputStream> NO_STDIN = InputStream::nullInputStream;

    @TempDir
    Path dir;

    @Test
    void aFifoNobodyWritesToIsGivenUpWithAReason() throws Exception {
        Path fifo = dir.resolve("journal.fifo");
        Process p = new ProcessBuilder("mkfifo", fifo.toString()).start();
        assertThat(p.waitFor()).as("mkfifo (coreutils) made the FIFO").isZero();
        DiagnoseService service = new DiagnoseService(1 << 20, Duration.ofMillis(500));
        Diagnosis d = assertTimeoutPreemptively(Duration.ofSeconds(20), () -> service.files(List.of(fifo.toString()),
                NO_STDIN));
        Collected c = d.collected().get(0);
        assertThat(c.problem().map(new io.gpuforge.app.words.Words(java.util.Locale.ENGLISH)::text)).get().asString().contains("gave nothing to read within").contains("--log -");
    }

    @Test
    void aProcFileIsReadToItsEndThoughItsSizeReadsZero() throws Exception {
        Path proc = Path.of("/proc/self/status");
        assertThat(Files.size(proc)).as("the kernel says 0").isZero();
        Diagnosis d = new DiagnoseService(1 << 20).files(List.of(proc.toString()), NO_STDIN);
        Collected c = d.collected().get(0);
        assertThat(c.problem()).isEmpty();
        assertThat(c.bytesRead()).isPositive();
        assertThat(c.lines()).isGreaterThan(5);
    }
}
