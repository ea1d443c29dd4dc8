package io.gpuforge.hypervisor.proxmox;

import java.util.LinkedHashMap;
import java.util.Map;

/** VM operations built on the client. Blocking: background threads only. */
public final class PveVms {

    static final int CLONE_ATTEMPTS = 5;
    private final PveClient client;

    public PveVms(PveClient client) {
        this.client = client;
    }

    /** A clone and the id it got. */
    public record Clone(int vmid, Upid task) {
    }

    /**
     * Clones a template to a new VM. {@code /cluster/nextid} does not reserve the id, so when someone takes it
     * first the clone is retried with the next free id (up to {@value #CLONE_ATTEMPTS} times).
     */
    public Clone cloneTemplate(String node, int template, String name, boolean full) throws PveApiException {
        PveApiException last = null;
        for (int attempt = 0; attempt < CLONE_ATTEMPTS; attempt++) {
            int id = Integer.parseInt(client.get("/cluster/nextid", Map.of()).asText());
            Map<String, String> p = new LinkedHashMap<>();
            p.put("newid", String.valueOf(id));
            p.put("name", name);
            p.put("full", PveValues.send(full));
            try {
                return new Clone(id, Upid.parse(client.post("/nodes/" + node + "/qemu/" + template + "/clone", p).asText()));
            } catch (PveApiException e) {
                if (!e.getMessage().contains("already exists")) {
                    throw e;
                }
                last = e;
            }
        }
        throw last;
    }
}
