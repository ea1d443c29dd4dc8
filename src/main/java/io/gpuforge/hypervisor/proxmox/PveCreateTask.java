package io.gpuforge.hypervisor.proxmox;

import io.gpuforge.domain.BackendException;
import io.gpuforge.domain.tasks.TaskListener;
import io.gpuforge.domain.tasks.TaskOutcome;
import io.gpuforge.domain.tasks.TaskRef;
import io.gpuforge.domain.vm.VmRef;
import io.gpuforge.domain.vm.VmSpec;
import io.gpuforge.hypervisor.BackendTask;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BooleanSupplier;

/**
 * A VM create on Proxmox VE as one task: download the cloud image (when needed), {@code POST /nodes/{node}/qemu},
 * grow the imported disk to the spec's size. Each step's log goes to the listener as it comes, marked with its step;
 * a cancel stops the running PVE task and no later step starts. The outcome's task target is the new VM's id (also
 * when the create failed or was cancelled after PVE had taken the id), so the caller can clean up.
 */
final class PveCreateTask implements BackendTask {

    /** A cloud image to fetch into an {@code import} storage first. */
    record Download(String storage, PveApi.Download request) {
    }

    private final PveProvisioning pve;
    private final String node;
    private final VmSpec spec;
    private final Map<String, String> params;
    private final Optional<Download> download;
    private final Optional<PveVms.Clone> posted;
    private volatile TaskRef ref;

    /** @param posted the create already sent (when there was nothing to download first) */
    PveCreateTask(PveProvisioning pve, String node, VmSpec spec, Map<String, String> params, Optional<Download> download,
                  Optional<PveVms.Clone> posted) {
        this.pve = pve;
        this.node = node;
        this.spec = spec;
        this.params = Collections.unmodifiableMap(new LinkedHashMap<>(params));
        this.download = download;
        this.posted = posted;
        this.ref = new TaskRef("gpuforge-create-" + spec.name(), node, "qmcreate", "");
    }

    @Override
    public TaskRef ref() {
        return ref;
    }

    @Override
    public TaskOutcome await(TaskListener listener, BooleanSupplier cancelled, Duration timeout)
            throws BackendException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        List<String> log = new ArrayList<>();
        TaskListener both = line -> {
            log.add(line);
            listener.line(line);
        };
        if (download.isPresent()) {
            Download d = download.get();
            both.line("[1/3] download " + d.request().url() + " to " + d.storage() + ":import/" + d.request().filename());
            PveTasks.Outcome o = pve.await(pve.download(node, d), l -> both.line("  " + l), cancelled, left(deadline));
            if (!o.ok()) {
                return ended(false, o.exitStatus(), log, "");
            }
        }
        if (cancelled.getAsBoolean()) {
            return ended(false, "cancelled", log, "");
        }
        both.line("[2/3] create " + spec.name() + " on " + node);
        PveVms.Clone created = posted.isPresent() ? posted.get() : pve.post(node, params);
        String vmid = String.valueOf(created.vmid());
        both.line("  VM id " + vmid + " (from /cluster/nextid)");
        PveTasks.Outcome o = pve.await(created.task(), l -> both.line("  " + l), cancelled, left(deadline));
        if (!o.ok()) {
            return ended(false, o.exitStatus(), log, vmid);
        }
        if (spec.options().diskGiB().isPresent() && params.getOrDefault("scsi0", "").contains("import-from=")) {
            long want = (long) spec.options().diskGiB().getAsInt() << 30;
            String disk = pve.config(node, created.vmid()).getOrDefault("scsi0", "");
            long have = sizeOf(disk);
            if (want > have) {
                both.line("[3/3] grow scsi0 from " + (have >> 20) + " MiB to " + spec.options().diskGiB().getAsInt() + " GiB");
                PveTasks.Outcome r = pve.await(pve.resize(node, created.vmid(), "scsi0",
                        spec.options().diskGiB().getAsInt() + "G"), l -> both.line("  " + l), cancelled, left(deadline));
                if (!r.ok()) {
                    return ended(false, r.exitStatus(), log, vmid);
                }
            }
        }
        return ended(true, "OK", log, vmid);
    }

    private TaskOutcome ended(boolean ok, String status, List<String> log, String vmid) {
        ref = new TaskRef(ref.id(), node, "qmcreate", vmid);
        return new TaskOutcome(ref, ok, status, log, ok ? Optional.of(new VmRef(node, vmid)) : Optional.empty());
    }

    private static Duration left(long deadline) {
        return Duration.ofNanos(Math.max(1_000_000L, deadline - System.nanoTime()));
    }

    /** {@code size=2252M} of a PVE disk value, in bytes (0 when it does not say). */
    static long sizeOf(String disk) {
        for (String part : disk.split(",")) {
            if (part.startsWith("size=")) {
                String v = part.substring(5);
                char unit = Character.toUpperCase(v.charAt(v.length() - 1));
                double n = Double.parseDouble(Character.isDigit(unit) ? v : v.substring(0, v.length() - 1));
                int shift = unit == 'K' ? 10 : unit == 'M' ? 20 : unit == 'G' ? 30 : unit == 'T' ? 40 : 0;
                return (long) (n * (1L << shift));
            }
        }
        return 0;
    }
}
