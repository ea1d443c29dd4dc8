package io.gpuforge.diagnose;

import io.gpuforge.domain.diagnose.LogSource;
import java.util.List;
import java.util.regex.Pattern;

/** Where a log most likely came from, from its lines, when whoever gave it did not say. */
final class SourceGuess {

    private static final Pattern TASK = Pattern.compile("^task (error|ok)\\b|\\btask error:");
    private static final Pattern KERNEL = Pattern.compile("^\\[ *\\d+\\.\\d+\\]|^\\[\\w{3} \\w{3} +\\d+ [\\d:]+ \\d{4}\\]"
            + "|^\\w{3} +\\d+ [\\d:]+ \\S+ kernel: ");
    private static final Pattern QEMU = Pattern.compile("^(\\d{4}-\\d\\d-\\d\\dt[\\d:.]+z )?(qemu-system-\\w+|qemu-kvm|kvm):"
            + "|qemu unexpectedly closed the monitor");
    private static final Pattern GUEST = Pattern.compile("nvidia-smi|device manager|\\bcode ?(43|10|12)\\b|\\bnvrm:"
            + "|no devices were found");

    private SourceGuess() {
    }

    static LogSource of(List<LogLines.Line> all) {
        // what a collecting tool or a person wrote around the log says nothing of what kind of log it is
        List<LogLines.Line> lines = all.stream().filter(l -> !l.note()).toList();
        if (lines.stream().anyMatch(l -> TASK.matcher(l.plain()).find())) {
            return LogSource.TASK_LOG;
        }
        long kernel = lines.stream().filter(l -> KERNEL.matcher(l.plain()).find()).count();
        if (kernel > 0 && kernel * 2 >= lines.size()) {
            return LogSource.KERNEL_LOG;
        }
        if (lines.stream().anyMatch(l -> QEMU.matcher(l.plain()).find())) {
            return LogSource.QEMU_LOG;
        }
        if (lines.stream().anyMatch(l -> GUEST.matcher(l.plain()).find()) && kernel == 0) {
            return LogSource.GUEST;
        }
        return LogSource.PASTED;
    }
}
