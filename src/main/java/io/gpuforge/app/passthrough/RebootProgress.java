package io.gpuforge.app.passthrough;

import io.gpuforge.app.host.HostReboot;
import java.time.Duration;
import java.util.Locale;

/**
 * A reboot's progress as the chain tells it: a line when its state changes (asked, going down, down, back), and
 * every other poll as a status that replaces the last ({@link PassthroughChain.Listener#progress}): a host that is
 * down for a minute is one line, not one per poll. Called on the rebooting thread, one call at a time.
 */
final class RebootProgress implements HostReboot.Progress {

    private final PassthroughChain.Listener listener;
    private HostReboot.Phase last;

    RebootProgress(PassthroughChain.Listener listener) {
        this.listener = listener;
    }

    @Override
    public void phase(HostReboot.Phase phase, Duration waited, String detail) {
        String text = phase.name().toLowerCase(Locale.ROOT).replace('_', ' ') + " (" + waited.toSeconds() + " s): "
                + detail;
        if (phase != last) {
            last = phase;
            listener.line(text);
        } else {
            listener.progress(text);
        }
    }
}
