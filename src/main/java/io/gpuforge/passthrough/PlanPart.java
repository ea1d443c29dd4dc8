package io.gpuforge.passthrough;

import io.gpuforge.domain.message.Message;
import io.gpuforge.domain.passthrough.PassthroughPlan;
import java.util.ArrayList;
import java.util.List;

/**
 * What one step of planning contributes: file edits, the commands that make them take effect, and notes for
 * the user. The planner joins the parts of its strategies in order.
 */
record PlanPart(List<PassthroughPlan.FileEdit> edits, List<String> commands, List<Message> notes) {

    PlanPart {
        edits = List.copyOf(edits);
        commands = List.copyOf(commands);
        notes = List.copyOf(notes);
    }

    static PlanPart none() {
        return new PlanPart(List.of(), List.of(), List.of());
    }

    static PlanPart edit(PassthroughPlan.FileEdit edit) {
        return new PlanPart(List.of(edit), List.of(), List.of());
    }

    static PlanPart note(Message note) {
        return new PlanPart(List.of(), List.of(), List.of(note));
    }

    static PlanPart notes(List<Message> notes) {
        return new PlanPart(List.of(), List.of(), notes);
    }

    PlanPart withCommand(String command) {
        return and(new PlanPart(List.of(), List.of(command), List.of()));
    }

    /** This part followed by {@code next}. */
    PlanPart and(PlanPart next) {
        return new PlanPart(join(edits, next.edits), join(commands, next.commands), join(notes, next.notes));
    }

    boolean editsNothing() {
        return edits.isEmpty();
    }

    private static <T> List<T> join(List<T> a, List<T> b) {
        List<T> out = new ArrayList<>(a);
        out.addAll(b);
        return out;
    }
}
