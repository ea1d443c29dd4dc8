package io.gpuforge.app.monitor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import io.gpuforge.store.Database;
import io.gpuforge.store.EventRepository;
import java.nio.file.Path;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The event log while GPUForge shuts down: a page still reporting something must not fail the closing window. */
class EventLogTest {

    @TempDir
    Path dir;

    @Test
    void anEventReportedWhileTheApplicationClosesIsDroppedInsteadOfFailing() throws Exception {
        try (Database db = Database.open(dir.resolve("gpuforge.db"))) {
            ExecutorService executor = Executors.newSingleThreadExecutor();
            EventLog log = new EventLog(new EventRepository(db), executor);
            log.info("test", "before closing");
            executor.shutdown();
            assertThat(executor.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
            assertThatCode(() -> log.warn("test", "after closing")).doesNotThrowAnyException();
            assertThat(log.recent(10)).extracting(e -> e.message()).containsExactly("before closing");
        }
    }
}
