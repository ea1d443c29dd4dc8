package io.gpuforge.app.passthrough;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.domain.passthrough.ApplyProgress;
import io.gpuforge.domain.passthrough.ApplyProgress.Kind;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** An apply's progress as the command line and the window show it, from one formatter. */
class ApplyProgressLinesTest {

    private static List<String> run(ApplyProgressLines.Style style, boolean steps) {
        List<String> lines = new ArrayList<>();
        ApplyProgress p = new ApplyProgressLines(lines::add, style, steps);
        ApplyProgress.Step write = new ApplyProgress.Step(Kind.WRITE, "/etc/kernel/cmdline");
        ApplyProgress.Step refresh = new ApplyProgress.Step(Kind.COMMAND, "update-initramfs -u -k all");
        p.started(write);
        p.finished(write, true);
        p.started(refresh);
        p.output(refresh, "update-initramfs: Generating /boot/initrd.img-6.8.12-4-pve", false);
        p.finished(refresh, false);
        return lines;
    }

    @Test
    void theCommandLinesText() {
        assertThat(run(ApplyProgressLines.Style.TEXT, true)).containsExactly("writing /etc/kernel/cmdline",
                "running update-initramfs -u -k all", "  | update-initramfs: Generating /boot/initrd.img-6.8.12-4-pve",
                "  FAILED: running update-initramfs -u -k all");
    }

    @Test
    void theWindowsSymbols() {
        assertThat(run(ApplyProgressLines.Style.SYMBOLS, true)).containsExactly("▸ writing /etc/kernel/cmdline",
                "▸ running update-initramfs -u -k all", "  update-initramfs: Generating /boot/initrd.img-6.8.12-4-pve",
                "✗ running update-initramfs -u -k all");
    }

    @Test
    void quietTellsOnlyTheFailure() {
        assertThat(run(ApplyProgressLines.Style.TEXT, false)).containsExactly(
                "  FAILED: running update-initramfs -u -k all");
    }
}
