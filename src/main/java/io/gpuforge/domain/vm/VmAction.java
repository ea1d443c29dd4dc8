package io.gpuforge.domain.vm;

import java.util.Locale;

/** The power actions every backend offers: start, a clean shutdown (ACPI), reboot, and stop (power off). */
public enum VmAction {
    START, SHUTDOWN, REBOOT, STOP;

    public String json() {
        return name().toLowerCase(Locale.ROOT);
    }
}
