package io.gpuforge.app.passthrough;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.app.AppContext;
import io.gpuforge.app.host.HostTarget;
import io.gpuforge.app.settings.LanguageChoice;
import io.gpuforge.app.settings.ThemeChoice;
import io.gpuforge.domain.diagnose.FixPlan;
import io.gpuforge.domain.passthrough.ApplyOutcome;
import io.gpuforge.domain.passthrough.ApplyProgress;
import io.gpuforge.passthrough.FixPlanner;
import io.gpuforge.testing.HostTrees;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A diagnosis's host fix goes through the same journaled apply as passthrough: its files are written, listed in the
 * history, and the rollback puts every file back byte for byte (the new ones removed).
 */
class FixPlanApplyTest {

    @TempDir
    Path dir;

    @Test
    void aFixIsAppliedJournaledAndRolledBack() throws Exception {
        Path root = HostTrees.withBootTools(HostTrees.intelGrub(dir.resolve("h")));
        String grub = Files.readString(root.resolve("etc/default/grub"));
        FixPlan fix = FixPlan.kernelArguments("initcall_blacklist=sysfb_init")
                .withModprobe(List.of("options vfio-pci disable_idle_d3=1"))
                .withUdevRules(List.of("ACTION==\"add\", SUBSYSTEM==\"pci\", KERNEL==\"0000:04:00.0\","
                        + " ATTR{d3cold_allowed}=\"0\""));
        try (AppContext ctx = TestContexts.create(dir)) {
            HostTarget t = new HostTarget.Sysroot(root);
            PassthroughService.Applied a = ctx.passthrough().applyPlanned(t, f -> FixPlanner.plan(f, "power-state",
                    fix, List.of()), p -> true, ApplyProgress.NONE, (h, type, f) -> false).orElseThrow();
            assertThat(a.outcome().status()).isEqualTo(ApplyOutcome.Status.APPLIED);
            assertThat(a.rebootNeeded()).isTrue();
            assertThat(Files.readString(root.resolve("etc/default/grub"))).contains("initcall_blacklist=sysfb_init");
            assertThat(Files.readString(root.resolve("etc/modprobe.d/gpuforge-fix.conf")))
                    .contains("options vfio-pci disable_idle_d3=1");
            assertThat(Files.readString(root.resolve("etc/udev/rules.d/81-gpuforge-fix.rules")))
                    .contains("d3cold_allowed");
            PlanHistory.History h = ctx.passthrough().history().list(t, (x, type, f) -> false);
            assertThat(h.ignored()).isEmpty();
            assertThat(h.plans()).singleElement().satisfies(p -> {
                assertThat(p.planId()).startsWith("fix-");
                assertThat(p.kernelArgs()).containsExactly("initcall_blacklist=sysfb_init");
                assertThat(p.newFiles()).contains(FixPlanner.MODPROBE_FILE, FixPlanner.UDEV_FILE);
            });

            ApplyOutcome back = ctx.passthrough().rollback(t, Optional.empty(), ApplyProgress.NONE,
                    (x, type, f) -> false);
            assertThat(back.status()).isEqualTo(ApplyOutcome.Status.ROLLED_BACK);
            assertThat(Files.readString(root.resolve("etc/default/grub"))).isEqualTo(grub);
            assertThat(root.resolve("etc/modprobe.d/gpuforge-fix.conf")).doesNotExist();
            assertThat(root.resolve("etc/udev/rules.d/81-gpuforge-fix.rules")).doesNotExist();
        }
    }

    private static final class TestContexts {
        static AppContext create(Path dir) throws Exception {
            return io.gpuforge.testing.TestContexts.create(dir.resolve("home"), dir.resolve("no-sysroot"),
                    ThemeChoice.LIGHT, LanguageChoice.ENGLISH);
        }
    }
}
