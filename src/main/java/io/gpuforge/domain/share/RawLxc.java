package io.gpuforge.domain.share;

import java.util.Objects;

/** One raw {@code lxc.*} line of a container's configuration ({@code lxc.cgroup2.devices.allow: c 226:0 rwm}). */
public record RawLxc(String key, String value) {

    public RawLxc {
        Objects.requireNonNull(key);
        Objects.requireNonNull(value);
    }

    public String line() {
        return key + ": " + value;
    }
}
