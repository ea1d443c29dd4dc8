package io.gpuforge.domain.diagnose;

import java.util.Arrays;
import java.util.Optional;

/** Where a log came from; its {@link #id()} is the name in JSON and on the command line. */
public enum LogSource {
    /** A Proxmox task log ({@code TASK ERROR: start failed…}). */
    TASK_LOG("task-log"),
    /** QEMU's or libvirt's error ({@code qemu unexpectedly closed the monitor}, {@code kvm: -device …}). */
    QEMU_LOG("qemu-log"),
    /** The host's kernel log ({@code dmesg}, {@code journalctl -k}). */
    KERNEL_LOG("kernel-log"),
    /** What the guest shows: {@code nvidia-smi}, Windows Device Manager. */
    GUEST("guest"),
    /** Text of no one kind: prose, a forum post, several logs in one paste. */
    PASTED("pasted");

    private final String id;

    LogSource(String id) {
        this.id = id;
    }

    public String id() {
        return id;
    }

    public static Optional<LogSource> byId(String id) {
        return Arrays.stream(values()).filter(s -> s.id.equalsIgnoreCase(id)).findFirst();
    }
}
