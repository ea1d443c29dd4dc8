package io.gpuforge.demo;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/** A VM (or template): its node, configuration, and the changes PVE keeps pending until the next start. */
public final class SimVm {
    final int vmid;
    String node;
    boolean template;
    String status = "stopped";
    final Map<String, String> config = new TreeMap<>();
    /** key → new value, or null for a key to delete at the next start */
    final Map<String, String> pending = new TreeMap<>();
    /** the QEMU guest agent inside answers (when configured and the VM runs) */
    boolean agentAnswers = true;
    /** when the agent of a VM started through the API answers (its guest booted); 0: at once */
    long agentFromMillis;
    /** the guest's files written through the agent, and its directories */
    final Map<String, byte[]> files = new TreeMap<>();
    final Set<String> dirs = new TreeSet<>(List.of("/", "/etc", "/root", "/tmp", "/var", "/var/lib", "/var/tmp"));
    /** the cloud-init modules run in the guest through the agent, in order */
    final List<String> cloudInitRuns = new ArrayList<>();
    /** how often the cloud-init drive was written again through {@code PUT …/cloudinit} */
    int cloudInitDrives;
    /** every file the agent wrote, as last written, also once removed again (what the guest was given) */
    final Map<String, byte[]> written = new TreeMap<>();
    /** the modes {@code chmod} gave the guest's directories ({@code mkdir -m} too); 0755 when not set */
    final Map<String, String> modes = new TreeMap<>();

    SimVm(int vmid, String node) {
        this.vmid = vmid;
        this.node = node;
    }

    String digest() {
        return SimCluster.digest(config + "|" + pending);
    }

    /** The configuration with pending changes applied: what GET .../config answers by default. */
    Map<String, String> withPending() {
        Map<String, String> out = new TreeMap<>(config);
        pending.forEach((k, v) -> {
            if (v == null) {
                out.remove(k);
            } else {
                out.put(k, v);
            }
        });
        return out;
    }

    /** A cold start applies what was pending. */
    void applyPending() {
        Map<String, String> next = withPending();
        config.clear();
        config.putAll(next);
        pending.clear();
    }

    boolean agentConfigured() {
        String a = config.getOrDefault("agent", "0");
        return a.equals("1") || a.startsWith("1,") || a.contains("enabled=1");
    }
}
