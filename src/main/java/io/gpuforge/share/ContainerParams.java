package io.gpuforge.share;

import io.gpuforge.domain.share.ContainerSpec;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The parameters of Proxmox's {@code POST /nodes/{node}/lxc} for a new container, in the order they are sent: what the
 * backend sends and what the window's summary shows are the same. Unprivileged, DHCP on {@code eth0}. Pure.
 */
public final class ContainerParams {

    private ContainerParams() {
    }

    public static Map<String, String> of(ContainerSpec s) {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("vmid", String.valueOf(s.vmid()));
        p.put("ostemplate", s.template());
        p.put("hostname", s.hostname());
        p.put("cores", String.valueOf(s.cores()));
        p.put("memory", String.valueOf(s.memoryMiB()));
        p.put("rootfs", s.storage() + ":" + s.diskGiB());
        p.put("net0", "name=eth0,bridge=" + s.bridge() + ",ip=dhcp");
        p.put("unprivileged", "1");
        for (int i = 0; i < s.devices().size(); i++) {
            p.put("dev" + i, s.devices().get(i).value());
        }
        s.sshPublicKeys().ifPresent(k -> p.put("ssh-public-keys", k));
        p.put("start", s.start() ? "1" : "0");
        return p;
    }
}
