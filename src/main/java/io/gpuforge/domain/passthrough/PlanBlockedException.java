package io.gpuforge.domain.passthrough;


/** The device cannot be passed through as things stand; the checks say why. */
public final class PlanBlockedException extends Exception {
    private static final long serialVersionUID = 1L;
    private final transient ReadinessReport report;

    public PlanBlockedException(String message, ReadinessReport report) {
        super(message);
        this.report = report;
    }

    public ReadinessReport report() {
        return report;
    }
}
