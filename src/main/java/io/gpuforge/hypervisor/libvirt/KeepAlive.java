package io.gpuforge.hypervisor.libvirt;

/**
 * libvirt's keepalive for a connection to a daemon ({@code virConnectSetKeepAlive}): a ping every
 * {@code intervalSeconds}, and the connection counts as dead after {@code count} unanswered ones. Then every
 * call waiting on it fails (a network error) instead of hanging, and the connection is reported closed.
 * A dead host is noticed after about {@code intervalSeconds × (count + 1)} seconds.
 */
public record KeepAlive(int intervalSeconds, int count) {

    /** About 20 s until a silent host counts as gone (virsh uses 5 s × 6). */
    public static final KeepAlive DEFAULT = new KeepAlive(5, 3);

    public KeepAlive {
        if (intervalSeconds < 0 || count < 0) {
            throw new IllegalArgumentException("keepalive interval and count are not negative");
        }
    }

    /** No keepalive: a silent host is never noticed (tests only). */
    public static KeepAlive off() {
        return new KeepAlive(0, 0);
    }

    public boolean enabled() {
        return intervalSeconds > 0;
    }
}
