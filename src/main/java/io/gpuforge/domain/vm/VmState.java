package io.gpuforge.domain.vm;

import java.util.Locale;

/** A VM's power state as both backends can tell it. */
public enum VmState {
    RUNNING, PAUSED, SUSPENDED, STOPPED, CRASHED, UNKNOWN;

    /** The lower-case form used in JSON output and tables ("running", "stopped"). */
    public String json() {
        return name().toLowerCase(Locale.ROOT);
    }

    public boolean isRunning() {
        return this == RUNNING || this == PAUSED;
    }
}
