package io.gpuforge.bounded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A local tool that hangs without printing, or prints without end, is stopped at its limit with every process it
 * started (the seed tool of a VM create used to be read to its end before its wait began, so a hung one hung the
 * create); one that behaves is read whole in its directory.
 */
class BoundedProcessTest {

    @TempDir
    Path dir;

    @Test
    void aToolThatPrintsNothingAndHangsIsStoppedAtTheDeadlineWithItsChildren() throws Exception {
        Path pid = dir.resolve("child.pid");
        long t0 = System.nanoTime();
        BoundedReadException e = catchThrowableOfType(() -> BoundedProcess.run(List.of("/bin/sh", "-c",
                "sleep 60 & echo $! > " + pid + "; wait"), Optional.empty(), new ReadLimits(Duration.ofSeconds(1),
                4096)), BoundedReadException.class);
        assertThat((System.nanoTime() - t0) / 1_000_000).as("back within the deadline and a margin").isLessThan(8000);
        assertThat(e.kind()).isEqualTo(BoundedReadException.Kind.DEADLINE);
        assertThat(e.getMessage()).isEqualTo("sh did not finish within 1 s and was stopped");
        long child = Long.parseLong(Files.readString(pid).strip());
        long until = System.nanoTime() + 5_000_000_000L; // killed, then reaped by whoever inherits it
        while (ProcessHandle.of(child).map(ProcessHandle::isAlive).orElse(false) && System.nanoTime() < until) {
            Thread.sleep(50);
        }
        assertThat(ProcessHandle.of(child).map(ProcessHandle::isAlive).orElse(false)).as("its sleep is gone too")
                .isFalse();
    }

    @Test
    void aToolThatPrintsWithoutEndIsStoppedAtTheLimit() {
        BoundedReadException e = catchThrowableOfType(() -> BoundedProcess.run(List.of("yes", "seed"),
                Optional.empty(), new ReadLimits(Duration.ofSeconds(30), 64 * 1024)), BoundedReadException.class);
        assertThat(e.kind()).isEqualTo(BoundedReadException.Kind.TOO_LARGE);
        assertThat(e.getMessage()).isEqualTo("yes printed more than 64 KiB and was stopped");
        assertThat(e.read()).isLessThanOrEqualTo(64 * 1024);
    }

    @Test
    void aToolThatBehavesIsReadWholeInItsDirectory() throws Exception {
        BoundedProcess.Output o = BoundedProcess.run(List.of("/bin/sh", "-c", "pwd; echo done >&2; exit 3"),
                Optional.of(dir), new ReadLimits(Duration.ofSeconds(10), 4096));
        assertThat(o.exitCode()).isEqualTo(3);
        assertThat(o.text()).isEqualTo(dir.toRealPath() + "\ndone\n");
    }
}
