package io.gpuforge.ui.passthrough;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.app.host.HostReboot.Phase;
import io.gpuforge.ui.common.I18n;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/**
 * The Reboot page shows one status line that follows the polls, and its log keeps one line per change of phase,
 * not a new "Down, waiting…" line every second.
 */
class RebootLinesTest {

    private static final Phase[] POLLS = {Phase.ASKED, Phase.GOING_DOWN, Phase.GOING_DOWN, Phase.DOWN, Phase.DOWN,
        Phase.DOWN, Phase.DOWN, Phase.BACK};

    private static List<String> walk(Locale locale, List<String> statuses) {
        RebootLines lines = new RebootLines(new I18n(locale));
        List<String> log = new ArrayList<>();
        for (int i = 0; i < POLLS.length; i++) {
            RebootLines.Update u = lines.on(POLLS[i], Duration.ofSeconds(i * 3L), "boot id abc");
            statuses.add(u.status());
            u.logLine().ifPresent(log::add);
        }
        return log;
    }

    @Test
    void oneLogLinePerPhaseAndAStatusLineThatCounts() {
        List<String> statuses = new ArrayList<>();
        List<String> log = walk(Locale.ENGLISH, statuses);
        assertThat(log).containsExactly("Reboot asked (0 s): boot id abc", "Going down (3 s): boot id abc",
                "Down, waiting for it to come back (9 s): boot id abc", "Back (21 s): boot id abc");
        assertThat(statuses).hasSize(POLLS.length).doesNotHaveDuplicates()
                .contains("Down for 12 s, waiting for it to come back…", "Down for 18 s, waiting for it to come back…")
                .last().isEqualTo("Back after 21 s: boot id abc");
    }

    @Test
    void inChineseToo() {
        List<String> statuses = new ArrayList<>();
        assertThat(walk(Locale.SIMPLIFIED_CHINESE, statuses)).hasSize(4).allMatch(l -> !l.contains("passthrough."));
        assertThat(statuses).contains("已关闭 12 秒，等待其恢复…");
    }
}
