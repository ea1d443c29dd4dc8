package io.gpuforge.domain.diagnose;

import io.gpuforge.domain.message.Message;
import java.util.List;
import java.util.Optional;

/**
 * What the logs say: the causes found, the first the most likely (the others "also seen": often the consequence of
 * the first); when none is found, the lines that looked relevant and why nothing could be named; and the logs read.
 *
 * @param causes ranked, most likely first; empty when no signature matched
 * @param relevant when no cause was found, the lines that looked relevant (errors, the GPU, vfio, KVM, IOMMU lines)
 * @param reason when no cause was found, why (no signature matched, the log was empty, nothing could be read)
 */
public record Diagnosis(List<Finding> causes, List<Evidence> relevant, List<Collected> collected,
                        Optional<Message> reason) {

    public static final String UNKNOWN = "unknown";

    public Diagnosis {
        causes = List.copyOf(causes);
        relevant = List.copyOf(relevant);
        collected = List.copyOf(collected);
        reason = causes.isEmpty() ? reason : Optional.empty();
    }

    /** The id of the most likely cause, or {@value #UNKNOWN}. */
    public String cause() {
        return causes.isEmpty() ? UNKNOWN : causes.get(0).id();
    }

    public boolean known() {
        return !causes.isEmpty();
    }

    /** The causes after the first. */
    public List<Finding> alsoSeen() {
        return causes.isEmpty() ? List.of() : causes.subList(1, causes.size());
    }
}
