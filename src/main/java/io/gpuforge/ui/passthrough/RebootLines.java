package io.gpuforge.ui.passthrough;

import io.gpuforge.app.host.HostReboot;
import io.gpuforge.ui.common.I18n;
import java.time.Duration;
import java.util.Optional;

/**
 * What the Reboot page shows of a reboot's progress: one status line that changes with every poll ("Down for 12 s,
 * waiting…"), and a log line only when the phase changes (asked, going down, down, back), never one per poll.
 * Called on the rebooting thread, one call at a time.
 */
final class RebootLines {

    /** What one poll changes: the status line, and a log line when the phase is new. */
    record Update(String status, Optional<String> logLine) {
    }

    private final I18n i18n;
    private HostReboot.Phase last;

    RebootLines(I18n i18n) {
        this.i18n = i18n;
    }

    Update on(HostReboot.Phase phase, Duration waited, String detail) {
        long s = waited.toSeconds();
        String status = i18n.get(keys(phase)[0], s, detail);
        Optional<String> log = Optional.empty();
        if (phase != last) {
            last = phase;
            log = Optional.of(i18n.get(keys(phase)[1], s, detail));
        }
        return new Update(status, log);
    }

    /** The status line's key and the log line's key of a phase. */
    private static String[] keys(HostReboot.Phase p) {
        switch (p) {
            case ASKED:
                return new String[] {"passthrough.reboot.status.asked", "passthrough.reboot.phase.asked"};
            case GOING_DOWN:
                return new String[] {"passthrough.reboot.status.goingDown", "passthrough.reboot.phase.goingDown"};
            case DOWN:
                return new String[] {"passthrough.reboot.status.down", "passthrough.reboot.phase.down"};
            default:
                return new String[] {"passthrough.reboot.status.back", "passthrough.reboot.phase.back"};
        }
    }
}
