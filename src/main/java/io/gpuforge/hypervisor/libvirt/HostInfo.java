package io.gpuforge.hypervisor.libvirt;

import java.util.OptionalLong;
import org.libvirt.LibvirtException;
import org.libvirt.NodeInfo;

/** The host's CPUs and memory as libvirt reports them ({@code virNodeGetInfo}, {@code virNodeGetFreeMemory}). */
record HostInfo(int cpus, long memoryBytes, OptionalLong freeBytes) {

    static HostInfo read(LibvirtConnection connection) throws LibvirtBackendException {
        return connection.call("read the host's CPUs and memory", c -> {
            NodeInfo n = c.nodeInfo();
            OptionalLong free;
            try {
                free = OptionalLong.of(c.getFreeMemory());
            } catch (LibvirtException e) {
                free = OptionalLong.empty(); // not every driver tells
            }
            return new HostInfo(n.cpus, n.memory * 1024, free);
        });
    }

    OptionalLong usedBytes() {
        return freeBytes.isPresent() ? OptionalLong.of(Math.max(0, memoryBytes - freeBytes.getAsLong())) : OptionalLong.empty();
    }
}
