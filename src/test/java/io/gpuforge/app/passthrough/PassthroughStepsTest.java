package io.gpuforge.app.passthrough;

import static io.gpuforge.app.passthrough.PassthroughSteps.Event.APPLIED;
import static io.gpuforge.app.passthrough.PassthroughSteps.Event.APPLIED_REBOOT;
import static io.gpuforge.app.passthrough.PassthroughSteps.Event.ATTACHED;
import static io.gpuforge.app.passthrough.PassthroughSteps.Event.BLOCKED;
import static io.gpuforge.app.passthrough.PassthroughSteps.Event.CANCELLED;
import static io.gpuforge.app.passthrough.PassthroughSteps.Event.CONFIGURED_NOT_REBOOTED;
import static io.gpuforge.app.passthrough.PassthroughSteps.Event.FAILED;
import static io.gpuforge.app.passthrough.PassthroughSteps.Event.INTERRUPTED;
import static io.gpuforge.app.passthrough.PassthroughSteps.Event.IN_PLACE;
import static io.gpuforge.app.passthrough.PassthroughSteps.Event.NEEDS_CHANGES;
import static io.gpuforge.app.passthrough.PassthroughSteps.Event.NOT_APPLIED;
import static io.gpuforge.app.passthrough.PassthroughSteps.Event.NOT_AS_INTENDED;
import static io.gpuforge.app.passthrough.PassthroughSteps.Event.REBOOTED;
import static io.gpuforge.app.passthrough.PassthroughSteps.Event.VERIFIED;
import static io.gpuforge.app.passthrough.PassthroughSteps.State.APPLY;
import static io.gpuforge.app.passthrough.PassthroughSteps.State.ATTACH;
import static io.gpuforge.app.passthrough.PassthroughSteps.State.CHECK;
import static io.gpuforge.app.passthrough.PassthroughSteps.State.DONE;
import static io.gpuforge.app.passthrough.PassthroughSteps.State.REBOOT;
import static io.gpuforge.app.passthrough.PassthroughSteps.State.STOPPED;
import static io.gpuforge.app.passthrough.PassthroughSteps.State.VERIFY;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpuforge.app.passthrough.PassthroughSteps.Event;
import io.gpuforge.app.passthrough.PassthroughSteps.State;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Every transition of the passthrough's steps, the refused ones, and where a check of the host resumes. */
class PassthroughStepsTest {

    private static State walk(Event... events) {
        State s = CHECK;
        for (Event e : events) {
            s = PassthroughSteps.next(s, e);
        }
        return s;
    }

    @Test
    void eachPathThroughTheSteps() {
        assertThat(walk(NEEDS_CHANGES, APPLIED_REBOOT, REBOOTED, VERIFIED, ATTACHED)).isEqualTo(DONE);
        assertThat(walk(NEEDS_CHANGES, APPLIED, ATTACHED)).as("no reboot needed: no verify").isEqualTo(DONE);
        assertThat(walk(CONFIGURED_NOT_REBOOTED, REBOOTED, VERIFIED, ATTACHED)).isEqualTo(DONE);
        assertThat(walk(IN_PLACE, ATTACHED)).isEqualTo(DONE);
        assertThat(walk(BLOCKED)).isEqualTo(STOPPED);
        assertThat(walk(INTERRUPTED)).isEqualTo(STOPPED);
        assertThat(walk(NEEDS_CHANGES, NOT_APPLIED)).isEqualTo(STOPPED);
        assertThat(walk(NEEDS_CHANGES, APPLIED_REBOOT, REBOOTED, NOT_AS_INTENDED)).isEqualTo(STOPPED);
    }

    @Test
    void everyTransitionOfTheTableAndNoOther() {
        List<String> seen = new ArrayList<>();
        for (State s : State.values()) {
            for (Event e : Event.values()) {
                boolean allowed = PassthroughSteps.outcomes(s).contains(e);
                if (allowed) {
                    seen.add(s + " " + e + " -> " + PassthroughSteps.next(s, e));
                } else {
                    assertThatThrownBy(() -> PassthroughSteps.next(s, e)).as(s + " " + e)
                            .isInstanceOf(IllegalStateException.class).hasMessageContaining(s.name());
                }
            }
        }
        assertThat(seen).containsExactlyInAnyOrder(
                "CHECK BLOCKED -> STOPPED", "CHECK INTERRUPTED -> STOPPED", "CHECK NEEDS_CHANGES -> APPLY",
                "CHECK CONFIGURED_NOT_REBOOTED -> REBOOT", "CHECK IN_PLACE -> ATTACH",
                "APPLY APPLIED_REBOOT -> REBOOT", "APPLY APPLIED -> ATTACH", "APPLY NOT_APPLIED -> STOPPED",
                "REBOOT REBOOTED -> VERIFY", "VERIFY VERIFIED -> ATTACH", "VERIFY NOT_AS_INTENDED -> STOPPED",
                "ATTACH ATTACHED -> DONE",
                "CHECK FAILED -> STOPPED", "APPLY FAILED -> STOPPED", "REBOOT FAILED -> STOPPED",
                "VERIFY FAILED -> STOPPED", "ATTACH FAILED -> STOPPED",
                "CHECK CANCELLED -> STOPPED", "APPLY CANCELLED -> STOPPED", "REBOOT CANCELLED -> STOPPED",
                "VERIFY CANCELLED -> STOPPED", "ATTACH CANCELLED -> STOPPED");
        assertThat(EnumSet.of(DONE, STOPPED)).allMatch(State::ended).allMatch(s -> PassthroughSteps.outcomes(s).isEmpty());
        assertThat(EnumSet.complementOf(EnumSet.of(DONE, STOPPED))).noneMatch(State::ended);
    }

    @Test
    void theCheckResumesWhereTheHostStands() {
        for (PassthroughStatus.Stage stage : PassthroughStatus.Stage.values()) {
            PassthroughStatus status = new PassthroughStatus(stage, Optional.empty(), Optional.empty(), Optional.empty(),
                    Optional.empty());
            State next = PassthroughSteps.next(CHECK, PassthroughSteps.checked(status));
            switch (stage) {
                case NEEDS_CHANGES:
                    assertThat(next).isEqualTo(APPLY);
                    break;
                case CONFIGURED_NOT_REBOOTED:
                    assertThat(next).as("applied before a restart: on to the reboot").isEqualTo(REBOOT);
                    break;
                case IN_PLACE:
                    assertThat(next).isEqualTo(ATTACH);
                    break;
                default:
                    assertThat(next).as(stage.name()).isEqualTo(STOPPED);
            }
        }
        assertThat(PassthroughSteps.applied(true, true)).isEqualTo(APPLIED_REBOOT);
        assertThat(PassthroughSteps.applied(true, false)).isEqualTo(APPLIED);
        assertThat(PassthroughSteps.applied(false, true)).isEqualTo(NOT_APPLIED);
        assertThat(PassthroughSteps.next(VERIFY, FAILED)).isEqualTo(STOPPED);
        assertThat(PassthroughSteps.next(REBOOT, CANCELLED)).isEqualTo(STOPPED);
    }
}
