package io.gpuforge.cli.serve;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.app.AppPaths;
import io.gpuforge.app.monitor.ServiceBeacon;
import io.gpuforge.cli.GpuForgeCli;
import io.gpuforge.cli.common.CliOutput;
import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A second gpuforge serve on a store another one samples into is refused: the same GPUs are not sampled twice. */
class OneServicePerStoreTest {

    @TempDir
    Path home;

    @Test
    void aSecondServeOnTheSameStoreIsRefused() throws Exception {
        AppPaths paths = AppPaths.underHome(home);
        Files.createDirectories(paths.dataDir());
        ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
        try (ServiceBeacon.Announcement running = new ServiceBeacon(paths.dataDir(), Clock.systemUTC())
                .announce(Duration.ofSeconds(1), "off", timer)) {
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            int exit = GpuForgeCli.run(new String[] {"serve", "--duration", "1"}, paths,
                    new CliOutput(new PrintWriter(out), new PrintWriter(err)), new ByteArrayInputStream(new byte[0]),
                    Map.of());
            assertThat(exit).isEqualTo(1);
            assertThat(err.toString()).contains("another gpuforge serve (process " + ProcessHandle.current().pid()
                    + ") already samples into " + paths.databaseFile());
            assertThat(out.toString()).doesNotContain("watching");
        } finally {
            timer.shutdownNow();
        }
    }
}
