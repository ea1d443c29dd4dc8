package io.gpuforge.app.passthrough;

import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The steps of passing one GPU through to one VM, and the only ways from one to the next: the one workflow that
 * {@code gpuforge passthrough} ({@link PassthroughChain}) and the passthrough wizard both follow. Pure: a step's
 * outcome ({@link Event}) and the step it happened in give the next step; any other pair is a bug and refused.
 *
 * <p>Resuming is starting again: {@link State#CHECK} reads the host, and its state and journal
 * ({@link PassthroughStatus}) say where the work stood, so GPUForge restarted half-way goes on where the host is:
 * changes still to make → apply; configured but running the old boot → reboot; everything in place → attach; an
 * apply that did not finish → stop, with the rollback as the way out.
 */
public final class PassthroughSteps {

    /** Where the work is. */
    public enum State {
        /** reading the host and planning */
        CHECK,
        /** changing the host (the user confirms the plan first) */
        APPLY,
        /** rebooting the host into its new boot configuration */
        REBOOT,
        /** checking that the host is what the apply intended */
        VERIFY,
        /** attaching the GPU to the VM */
        ATTACH,
        /** the GPU is the VM's */
        DONE,
        /** stopped: blocked, cancelled, failed, or an earlier apply to roll back first */
        STOPPED;

        /** Whether nothing follows. */
        public boolean ended() {
            return this == DONE || this == STOPPED;
        }
    }

    /** What a step ended with. */
    public enum Event {
        /** CHECK: the checks block the passthrough */
        BLOCKED,
        /** CHECK: an apply or rollback on the host did not finish */
        INTERRUPTED,
        /** CHECK: the plan has host changes */
        NEEDS_CHANGES,
        /** CHECK: the host's files have it, the running host does not yet */
        CONFIGURED_NOT_REBOOTED,
        /** CHECK: every function is on vfio-pci, nothing to change */
        IN_PLACE,
        /** APPLY: applied, and the new boot configuration needs a reboot */
        APPLIED_REBOOT,
        /** APPLY: applied, nothing needs a reboot */
        APPLIED,
        /** APPLY: the user declined the plan, or it changed under them: nothing was changed */
        NOT_APPLIED,
        /** REBOOT: the host is back */
        REBOOTED,
        /** VERIFY: the host is what the apply intended */
        VERIFIED,
        /** VERIFY: it is not */
        NOT_AS_INTENDED,
        /** ATTACH: the VM has the GPU */
        ATTACHED,
        /** any step: it failed (its message says why) */
        FAILED,
        /** any step: the user cancelled */
        CANCELLED
    }

    private static final Map<State, Map<Event, State>> NEXT = new EnumMap<>(State.class);

    static {
        on(State.CHECK, Event.BLOCKED, State.STOPPED);
        on(State.CHECK, Event.INTERRUPTED, State.STOPPED);
        on(State.CHECK, Event.NEEDS_CHANGES, State.APPLY);
        on(State.CHECK, Event.CONFIGURED_NOT_REBOOTED, State.REBOOT);
        on(State.CHECK, Event.IN_PLACE, State.ATTACH);
        on(State.APPLY, Event.APPLIED_REBOOT, State.REBOOT);
        on(State.APPLY, Event.APPLIED, State.ATTACH);
        on(State.APPLY, Event.NOT_APPLIED, State.STOPPED);
        on(State.REBOOT, Event.REBOOTED, State.VERIFY);
        on(State.VERIFY, Event.VERIFIED, State.ATTACH);
        on(State.VERIFY, Event.NOT_AS_INTENDED, State.STOPPED);
        on(State.ATTACH, Event.ATTACHED, State.DONE);
        for (State s : new State[] {State.CHECK, State.APPLY, State.REBOOT, State.VERIFY, State.ATTACH}) {
            on(s, Event.FAILED, State.STOPPED);
            on(s, Event.CANCELLED, State.STOPPED);
        }
    }

    private static void on(State from, Event e, State to) {
        NEXT.computeIfAbsent(from, s -> new EnumMap<>(Event.class)).put(e, to);
    }

    private PassthroughSteps() {
    }

    /** The step after {@code e} in {@code s}; an outcome the step cannot have is refused. */
    public static State next(State s, Event e) {
        State to = NEXT.getOrDefault(Objects.requireNonNull(s), Map.of()).get(Objects.requireNonNull(e));
        if (to == null) {
            throw new IllegalStateException("A passthrough cannot go on from " + s + " with " + e);
        }
        return to;
    }

    /** The outcomes {@code s} can end with (none once ended). */
    public static Set<Event> outcomes(State s) {
        return Collections.unmodifiableSet(NEXT.getOrDefault(s, Map.of()).keySet());
    }

    /** How the check ended, from where the host stands. */
    public static Event checked(PassthroughStatus status) {
        switch (status.stage()) {
            case BLOCKED:
                return Event.BLOCKED;
            case INTERRUPTED:
                return Event.INTERRUPTED;
            case NEEDS_CHANGES:
                return Event.NEEDS_CHANGES;
            case CONFIGURED_NOT_REBOOTED:
                return Event.CONFIGURED_NOT_REBOOTED;
            default:
                return Event.IN_PLACE;
        }
    }

    /** How an apply ended: applied (with or without a reboot to follow) or nothing changed. */
    public static Event applied(boolean applied, boolean rebootNeeded) {
        return !applied ? Event.NOT_APPLIED : rebootNeeded ? Event.APPLIED_REBOOT : Event.APPLIED;
    }
}
