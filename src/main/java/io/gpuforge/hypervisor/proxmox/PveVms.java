package io.gpuforge.hypervisor.proxmox;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/** VM operations built on the client: clone, create, template, power actions, delete. Blocking: background only. */
public final class PveVms {

    static final int CLONE_ATTEMPTS = 5;
    private final PveClient client;

    public PveVms(PveClient client) {
        this.client = client;
    }

    /** A clone (or a new VM) and the id it got. */
    public record Clone(int vmid, Upid task) {
    }

    /** What {@code POST /nodes/{node}/qemu/{vmid}/status/...} offers. */
    public enum Action { START, SHUTDOWN, REBOOT, STOP }

    @FunctionalInterface
    private interface WithId {
        Upid start(int vmid) throws PveApiException;
    }

    /**
     * Clones a template to a new VM. {@code /cluster/nextid} does not reserve the id, so when someone takes it
     * first the clone is retried with the next free id (up to {@value #CLONE_ATTEMPTS} times).
     */
    public Clone cloneTemplate(String node, int template, String name, boolean full) throws PveApiException {
        return clone(node, template, name, full, Optional.empty(), Optional.empty());
    }

    /** Clones a VM or template, to {@code target} (the source's node when empty) and, for a full clone, {@code storage}. */
    public Clone clone(String node, int source, String name, boolean full, Optional<String> target,
                       Optional<String> storage) throws PveApiException {
        return withNewId(id -> {
            Map<String, String> p = new LinkedHashMap<>();
            p.put("newid", String.valueOf(id));
            p.put("name", name);
            p.put("full", PveValues.send(full));
            target.ifPresent(t -> p.put("target", t));
            storage.ifPresent(s -> p.put("storage", s));
            return Upid.parse(client.post("/nodes/" + node + "/qemu/" + source + "/clone", p).asText());
        });
    }

    /** Creates a VM from configuration keys ({@code name}, {@code cores}, {@code scsi0}…) with the next free id. */
    public Clone create(String node, Map<String, String> config) throws PveApiException {
        return withNewId(id -> {
            Map<String, String> p = new LinkedHashMap<>();
            p.put("vmid", String.valueOf(id));
            p.putAll(config);
            return Upid.parse(client.post("/nodes/" + node + "/qemu", p).asText());
        });
    }

    private Clone withNewId(WithId call) throws PveApiException {
        PveApiException last = null;
        for (int attempt = 0; attempt < CLONE_ATTEMPTS; attempt++) {
            int id = Integer.parseInt(client.get("/cluster/nextid", Map.of()).asText());
            try {
                return new Clone(id, call.start(id));
            } catch (PveApiException e) {
                if (!e.getMessage().contains("already exists")) {
                    throw e;
                }
                last = e;
            }
        }
        throw last;
    }

    public Upid action(String node, int vmid, Action action) throws PveApiException {
        String verb = action.name().toLowerCase(Locale.ROOT);
        return Upid.parse(client.post("/nodes/" + node + "/qemu/" + vmid + "/status/" + verb, Map.of()).asText());
    }

    public Upid template(String node, int vmid) throws PveApiException {
        return Upid.parse(client.post("/nodes/" + node + "/qemu/" + vmid + "/template", Map.of()).asText());
    }

    /** Destroys a stopped VM and its disks; {@code purge} also removes it from backup jobs, replication and HA. */
    public Upid delete(String node, int vmid, boolean purge) throws PveApiException {
        return Upid.parse(client.delete("/nodes/" + node + "/qemu/" + vmid, Map.of("purge", PveValues.send(purge),
                "destroy-unreferenced-disks", "1")).asText());
    }
}
