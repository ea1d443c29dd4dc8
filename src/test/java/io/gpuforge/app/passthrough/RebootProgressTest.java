package io.gpuforge.app.passthrough;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.app.host.HostReboot.Phase;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A reboot watched for a minute, polled every few seconds as HostReboot does: one line per change of state, the
 * other polls as a status that replaces the last (issue 60: 18 identical "down" lines before).
 */
class RebootProgressTest {

    @Test
    void aStateChangeIsOneLineAndEveryOtherPollAStatus() {
        List<String> lines = new ArrayList<>();
        List<String> statuses = new ArrayList<>();
        RebootProgress p = new RebootProgress(new PassthroughChain.Listener() {
            @Override
            public void step(PassthroughSteps.State step, String detail) {
            }

            @Override
            public void line(String text) {
                lines.add(text);
            }

            @Override
            public void progress(String text) {
                statuses.add(text);
            }
        });
        p.phase(Phase.ASKED, Duration.ZERO, "pve-3090 was asked to reboot");
        for (int s = 1; s <= 3; s++) {
            p.phase(Phase.GOING_DOWN, Duration.ofSeconds(s), "pve-3090 still runs its old boot");
        }
        for (int s = 4; s <= 21; s++) {
            p.phase(Phase.DOWN, Duration.ofSeconds(s * 3), "pve-3090 does not answer");
        }
        p.phase(Phase.BACK, Duration.ofSeconds(66), "pve-3090 is back (boot id b2)");

        assertThat(lines).containsExactly("asked (0 s): pve-3090 was asked to reboot",
                "going down (1 s): pve-3090 still runs its old boot", "down (12 s): pve-3090 does not answer",
                "back (66 s): pve-3090 is back (boot id b2)");
        assertThat(statuses).hasSize(19).last().isEqualTo("down (63 s): pve-3090 does not answer");
    }
}
