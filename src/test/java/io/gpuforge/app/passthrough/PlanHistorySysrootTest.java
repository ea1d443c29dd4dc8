package io.gpuforge.app.passthrough;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.app.AppContext;
import io.gpuforge.app.host.HostTarget;
import io.gpuforge.app.settings.LanguageChoice;
import io.gpuforge.app.settings.ThemeChoice;
import io.gpuforge.domain.passthrough.ApplyProgress;
import io.gpuforge.domain.passthrough.PlanOptions;
import io.gpuforge.domain.pci.PciAddress;
import io.gpuforge.testing.HostTrees;
import io.gpuforge.testing.TestContexts;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A disk mounted and given as {@code --sysroot} whose backups hold a link out of it: the history of applied plans
 * does not follow it onto this machine's own files (it used to build the sysroot's paths by hand and read whatever
 * the link named); the manifest is named as one that resolves outside, and not read.
 */
class PlanHistorySysrootTest {

    @TempDir
    Path dir;

    @Test
    void aBackupThatLinksOutOfTheSysrootIsNotRead() throws Exception {
        Path root = HostTrees.withBootTools(HostTrees.intelGrub(dir.resolve("h")));
        try (AppContext ctx = TestContexts.create(dir.resolve("home"), dir.resolve("no-sysroot"), ThemeChoice.LIGHT,
                LanguageChoice.ENGLISH)) {
            HostTarget t = new HostTarget.Sysroot(root);
            ctx.passthrough().apply(t, PciAddress.parse("0000:01:00.0"), PlanOptions.defaults(), p -> true,
                    ApplyProgress.NONE, (h, type, f) -> false).orElseThrow();
            PlanHistory.History before = ctx.passthrough().history().list(t, (h, type, f) -> false);
            assertThat(before.plans()).hasSize(1);
            String id = before.plans().get(0).id();

            // the backup now lives outside the disk, and the disk links to it (absolutely, as on its own host)
            Path backups = root.resolve("var/lib/gpuforge/backups");
            Path outside = Files.createDirectories(dir.resolve("elsewhere"));
            Files.move(backups.resolve(id), outside.resolve(id));
            Files.createSymbolicLink(backups.resolve(id), outside.resolve(id).toAbsolutePath());
            // and one more, relative, climbing out of it
            Files.createSymbolicLink(backups.resolve("20990101-000000-0000"),
                    backups.relativize(outside.resolve(id)));

            PlanHistory.History after = ctx.passthrough().history().list(t, (h, type, f) -> false);
            assertThat(after.plans()).as("nothing read from outside the sysroot").isEmpty();
            assertThat(after.ignored()).anySatisfy(s -> assertThat(s).contains(id).contains("outside"))
                    .anySatisfy(s -> assertThat(s).contains("20990101-000000-0000").contains("outside"));
        }
    }
}
