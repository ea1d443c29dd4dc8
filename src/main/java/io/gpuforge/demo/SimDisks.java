package io.gpuforge.demo;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What PVE does with the device keys of a VM configuration before it writes them: a disk given as
 * {@code STORAGE:SIZE} (or {@code STORAGE:0,import-from=VOLUME}) is allocated as a new volume
 * ({@code local-zfs:vm-150-disk-0,size=32G}), an EFI or TPM state disk gets its fixed size, a CD-ROM must name an
 * existing ISO, and {@code hostpciN} must name an existing PCI resource mapping unless root@pam itself sets a raw
 * device. A refusal is thrown as a {@link Refusal} carrying PVE's answer.
 */
final class SimDisks {

    static final Pattern DISK_KEY = Pattern.compile("(scsi|virtio|sata|ide)\\d+|efidisk0|tpmstate0");
    private static final Pattern ALLOCATION = Pattern.compile("^([A-Za-z][A-Za-z0-9_.-]*):(\\d+(?:\\.\\d+)?|cloudinit)$");
    private static final Pattern VOLUME = Pattern.compile("^([A-Za-z][A-Za-z0-9_.-]*):(.+)$");
    private static final Pattern DISK_NUMBER = Pattern.compile("vm-\\d+-disk-(\\d+)");

    /** PVE refused the request: the answer to send. */
    static final class Refusal extends RuntimeException {
        private static final long serialVersionUID = 1L;
        final transient SimApi.Answer answer;

        Refusal(SimApi.Answer answer) {
            super(answer.message());
            this.answer = answer;
        }

        static Refusal fail(String message) {
            return new Refusal(SimApi.Answer.fail(500, message));
        }
    }

    private final SimCluster c;

    SimDisks(SimCluster c) {
        this.c = c;
    }

    /** Checks and rewrites the device keys of {@code changes} for {@code vm} (other keys pass unchanged). */
    Map<String, String> prepare(SimVm vm, Map<String, String> changes, SimApi.Caller caller) {
        Map<String, String> out = new LinkedHashMap<>();
        List<String> taken = new ArrayList<>(vm.withPending().values());
        for (Map.Entry<String, String> e : changes.entrySet()) {
            String key = e.getKey();
            String value = e.getValue();
            if (key.matches("hostpci\\d+")) {
                checkHostPci(key, value, caller);
            } else if (DISK_KEY.matcher(key).matches()) {
                value = disk(vm, key, value, taken, caller);
                taken.add(value);
            }
            out.put(key, value);
        }
        return out;
    }

    private void checkHostPci(String key, String value, SimApi.Caller caller) {
        Map<String, String> kv = SimVmApi.properties(value);
        String first = value.split(",", 2)[0];
        if (kv.containsKey("mapping")) {
            if (!c.mappings.containsKey(kv.get("mapping"))) {
                throw Refusal.fail("PCI device mapping not found for '" + kv.get("mapping") + "'");
            }
        } else if ((kv.containsKey("host") || !first.contains("=")) && !caller.isRoot()) {
            throw Refusal.fail("only root can set '" + key + "' config for non-mapped devices");
        }
    }

    private String disk(SimVm vm, String key, String value, List<String> taken, SimApi.Caller caller) {
        String[] parts = value.split(",", 2);
        String volume = parts[0].startsWith("file=") ? parts[0].substring(5) : parts[0];
        String options = parts.length > 1 ? parts[1] : "";
        if (volume.equals("none")) {
            return value;
        }
        Matcher alloc = ALLOCATION.matcher(volume);
        if (!alloc.matches()) {
            Matcher vol = VOLUME.matcher(volume);
            if (vol.matches() && options.contains("media=cdrom") && !exists(vm.node, volume)) {
                throw Refusal.fail("volume '" + volume + "' does not exist");
            }
            return value;
        }
        String storage = alloc.group(1);
        SimCluster.Storage s = SimCluster.storage(storage);
        if (s == null) {
            throw Refusal.fail("storage '" + storage + "' does not exist");
        }
        if (!s.content().contains("images")) {
            throw Refusal.fail("storage '" + storage + "' does not support vm images");
        }
        if (alloc.group(2).equals("cloudinit")) {
            return storage + ":vm-" + vm.vmid + "-cloudinit,media=cdrom";
        }
        Map<String, String> opts = SimVmApi.properties(options);
        long sizeBytes = (long) (Double.parseDouble(alloc.group(2)) * (1L << 30));
        String importFrom = opts.get("import-from");
        if (importFrom != null) {
            sizeBytes = importSize(vm.node, importFrom, caller);
        }
        String size;
        if (key.equals("efidisk0")) {
            size = "4m".equals(opts.get("efitype")) ? "1M" : "128K";
        } else if (key.equals("tpmstate0")) {
            size = "4M";
        } else {
            size = sizeBytes % (1L << 30) == 0 ? (sizeBytes >> 30) + "G" : (sizeBytes >> 20) + "M";
        }
        StringBuilder out = new StringBuilder(storage + ":vm-" + vm.vmid + "-disk-" + nextDisk(taken));
        for (String o : options.split(",")) {
            if (!o.isBlank() && !o.startsWith("import-from=") && !o.startsWith("size=")) {
                out.append(',').append(o);
            }
        }
        return out.append(",size=").append(size).toString();
    }

    private long importSize(String node, String source, SimApi.Caller caller) {
        if (source.startsWith("/")) {
            if (!caller.isRoot()) {
                throw Refusal.fail("only root can import from an absolute path: '" + source + "'");
            }
            return 2L << 30;
        }
        for (SimCluster.Volume v : c.files.getOrDefault(node + "/" + source.split(":")[0], List.of())) {
            if (v.volid().equals(source)) {
                return v.size();
            }
        }
        for (Map<String, Object> img : images(node)) {
            if (img.get("volid").equals(source)) {
                return (Long) img.get("size");
            }
        }
        throw Refusal.fail("volume '" + source + "' does not exist");
    }

    private boolean exists(String node, String volid) {
        return c.files.getOrDefault(node + "/" + volid.split(":")[0], List.of()).stream()
                .anyMatch(v -> v.volid().equals(volid));
    }

    private static int nextDisk(List<String> taken) {
        int next = 0;
        for (String v : taken) {
            Matcher m = DISK_NUMBER.matcher(v);
            while (m.find()) {
                next = Math.max(next, Integer.parseInt(m.group(1)) + 1);
            }
        }
        return next;
    }

    /** The VM disks on a node's storages, as the storage content lists them. */
    List<Map<String, Object>> images(String node) {
        List<Map<String, Object>> out = new ArrayList<>();
        for (SimVm vm : c.vms.values()) {
            if (!vm.node.equals(node)) {
                continue;
            }
            vm.config.forEach((k, v) -> {
                if (DISK_KEY.matcher(k).matches() && !v.contains("media=cdrom")) {
                    String volid = v.split(",")[0];
                    Map<String, String> kv = SimVmApi.properties(v);
                    Map<String, Object> m = new LinkedHashMap<>();
                    m.put("volid", volid);
                    m.put("content", "images");
                    m.put("size", sizeBytes(kv.getOrDefault("size", "0")));
                    m.put("format", "raw");
                    m.put("vmid", vm.vmid);
                    out.add(m);
                }
            });
        }
        return out;
    }

    /** PVE's sizes: {@code 32G}, {@code 4M}, {@code 528K}, {@code 1T}, or bytes. */
    static long sizeBytes(String size) {
        if (size.isEmpty()) {
            return 0;
        }
        char unit = Character.toUpperCase(size.charAt(size.length() - 1));
        String number = Character.isDigit(unit) ? size : size.substring(0, size.length() - 1);
        double n = Double.parseDouble(number);
        int shift = unit == 'K' ? 10 : unit == 'M' ? 20 : unit == 'G' ? 30 : unit == 'T' ? 40 : 0;
        return (long) (n * (1L << shift));
    }
}
