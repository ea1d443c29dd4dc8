package io.gpuforge.hypervisor.proxmox;

import com.fasterxml.jackson.databind.JsonNode;
import io.gpuforge.domain.BackendException;
import io.gpuforge.domain.vm.CloudImage;
import io.gpuforge.domain.vm.NetworkInfo;
import io.gpuforge.domain.SpecRefusedException;
import io.gpuforge.domain.vm.StorageInfo;
import io.gpuforge.domain.vm.VmField;
import io.gpuforge.domain.vm.VmSpec;
import io.gpuforge.hypervisor.BackendTask;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * What creating a VM needs from a Proxmox VE node: its storages, bridges and volumes, and the create itself as one
 * task of up to three PVE tasks ({@link PveCreateTask}): the cloud image fetched into an {@code import} storage with
 * {@code download-url} (unless it is there already), the VM created with the image as {@code import-from} (a new id
 * from {@code /cluster/nextid}, retried when someone takes it first), and the disk grown to the spec's size.
 * A 400 whose {@code errors} name parameters becomes a {@link SpecRefusedException} naming the wizard's fields.
 */
final class PveProvisioning {

    private final PveSession session;
    private final PveClient client;
    private final PveApi api;
    private final PveVms vms;
    private final PveTasks tasks;

    PveProvisioning(PveSession session, PveClient client, PveTasks tasks) {
        this.session = session;
        this.client = client;
        this.api = new PveApi(client);
        this.vms = new PveVms(client);
        this.tasks = tasks;
    }

    List<StorageInfo> storages(String node) throws BackendException {
        List<StorageInfo> out = new ArrayList<>();
        for (PveApi.Storage s : session.call(() -> api.storages(node))) {
            out.add(new StorageInfo(s.name(), s.type(), s.content().stream().map(String::strip).filter(c -> !c.isEmpty())
                    .toList(), s.total(), s.avail(), s.active()));
        }
        return out;
    }

    List<NetworkInfo> networks(String node) throws BackendException {
        JsonNode list = session.call(() -> client.get("/nodes/" + node + "/network", Map.of("type", "any_bridge")));
        List<NetworkInfo> out = new ArrayList<>();
        for (JsonNode n : list) {
            PveValues.text(n, "iface").ifPresent(name -> out.add(new NetworkInfo(name, PveValues.text(n, "type")
                    .orElse("bridge"), PveValues.bool(n, "active").orElse(false))));
        }
        out.sort((a, b) -> a.name().compareTo(b.name()));
        return out;
    }

    List<String> volumes(String node, String storage, String content) throws BackendException {
        JsonNode list = session.call(() -> client.get("/nodes/" + node + "/storage/" + storage + "/content",
                Map.of("content", content)));
        List<String> out = new ArrayList<>();
        for (JsonNode v : list) {
            PveValues.text(v, "volid").ifPresent(out::add);
        }
        return out;
    }

    /** Starts the create; what PVE refuses at once (names, a missing storage, a bad value) is thrown here. */
    BackendTask create(String node, VmSpec spec) throws BackendException {
        List<StorageInfo> storages = storages(node);
        String disks = spec.options().storage().orElseGet(() -> storages.stream().filter(s -> s.active()
                && s.holds(StorageInfo.IMAGES)).map(StorageInfo::name).findFirst().orElse(""));
        if (disks.isEmpty()) {
            throw new BackendException(BackendException.Kind.INVALID, "Node " + node + " has no active storage for VM"
                    + " disks (content 'images'): add one under Datacenter → Storage");
        }
        StorageInfo chosen = storages.stream().filter(s -> s.name().equals(disks)).findFirst().orElseThrow(() ->
                new SpecRefusedException(Map.of(VmField.STORAGE, "node " + node + " has no storage '" + disks + "'"), null));
        if (!chosen.holds(StorageInfo.IMAGES)) {
            throw new SpecRefusedException(Map.of(VmField.STORAGE, "storage '" + disks + "' does not hold VM disks"
                    + " (content 'images')"), null);
        }
        Optional<PveCreateTask.Download> download = Optional.empty();
        Optional<String> importVolume = Optional.empty();
        if (spec.options().image().isPresent()) {
            CloudImage img = spec.options().image().get();
            String importStorage = storages.stream().filter(s -> s.active() && s.holds(StorageInfo.IMPORT))
                    .map(StorageInfo::name).findFirst().orElseThrow(() -> new SpecRefusedException(Map.of(VmField.IMAGE,
                            "node " + node + " has no storage for images to import (content 'import', Proxmox VE 8.4"
                                    + " or later): enable it on a directory storage such as 'local'"), null));
            String volid = importStorage + ":import/" + img.fileName();
            importVolume = Optional.of(volid);
            if (!volumes(node, importStorage, StorageInfo.IMPORT).contains(volid)) {
                download = Optional.of(new PveCreateTask.Download(importStorage, new PveApi.Download("import", img.url(),
                        img.fileName(), img.sha256(), img.sha256().map(s -> "sha256"))));
            }
        }
        Map<String, String> params = PveVmSpec.params(spec, disks, importVolume);
        Optional<PveVms.Clone> posted = download.isEmpty() ? Optional.of(post(node, params)) : Optional.empty();
        return new PveCreateTask(this, node, spec, params, download, posted);
    }

    /** The steps' calls, for {@link PveCreateTask}. */
    Upid download(String node, PveCreateTask.Download d) throws BackendException {
        return refusedFields(() -> api.downloadUrl(node, d.storage(), d.request()), Map.of("url", VmField.IMAGE,
                "filename", VmField.IMAGE, "checksum", VmField.IMAGE));
    }

    PveVms.Clone post(String node, Map<String, String> params) throws BackendException {
        return refusedFields(() -> vms.create(node, params), Map.of());
    }

    Upid resize(String node, int vmid, String disk, String size) throws BackendException {
        return session.call(() -> Upid.parse(client.put("/nodes/" + node + "/qemu/" + vmid + "/resize",
                Map.of("disk", disk, "size", size)).asText()));
    }

    Map<String, String> config(String node, int vmid) throws BackendException {
        return session.call(() -> api.config(node, vmid)).values();
    }

    PveTasks.Outcome await(Upid upid, Consumer<String> lines, BooleanSupplier cancelled, Duration timeout)
            throws BackendException, InterruptedException {
        return session.callWaiting(() -> tasks.await(upid, lines, cancelled, timeout));
    }

    PveSession session() {
        return session;
    }

    private <T> T refusedFields(PveSession.Call<T> call, Map<String, VmField> own) throws BackendException {
        try {
            return session.call(call);
        } catch (BackendException e) {
            if (e.getCause() instanceof PveApiException && !((PveApiException) e.getCause()).errors().isEmpty()) {
                Map<VmField, String> fields = new EnumMap<>(VmField.class);
                ((PveApiException) e.getCause()).errors().forEach((k, v) -> fields.merge(own.getOrDefault(k,
                        PveVmSpec.field(k)), k + ": " + v, (a, b) -> a + "; " + b));
                throw new SpecRefusedException(fields, e);
            }
            throw e;
        }
    }
}
