package io.gpuforge.domain;

import java.util.Locale;

/** Whether a node answers. */
public enum NodeState {
    ONLINE, OFFLINE, UNKNOWN;

    public String json() {
        return name().toLowerCase(Locale.ROOT);
    }
}
