package io.gpuforge.app;

import io.gpuforge.domain.ConnectionInfo;
import io.gpuforge.domain.HostException;
import io.gpuforge.domain.StorageInfo;
import io.gpuforge.domain.VmRef;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A template's own cloud-init user-data on Proxmox VE: the API cannot upload snippets, so the file is written over the
 * node's SSH host link ({@link HostLinks}; a Demo lab node's simulated host) into the {@code snippets} directory of a
 * storage that holds them (its path from {@code /etc/pve/storage.cfg}), for {@code cicustom: user=STORAGE:snippets/…}.
 * Without a link or such a storage the VM gets Proxmox VE's own cloud-init fields instead, and the caller says so.
 * Blocking.
 */
final class CloudInitSnippets {

    private static final Pattern SECTION = Pattern.compile("^([a-z0-9]+):\\s*(\\S+)\\s*$");
    /** Proxmox VE's built-in storage configuration when {@code storage.cfg} does not exist. */
    private static final String DEFAULT_LOCAL = "/var/lib/vz";
    private final HostAccess access;

    CloudInitSnippets(HostAccess access) {
        this.access = access;
    }

    /** A snippet on the node: the volume for {@code cicustom}, its file, and the host it was written on. */
    record Written(String volume, String path, String host) {
    }

    /** Why no snippet can be (or was) written; the message says what to do. */
    static final class NotWritten extends Exception {
        private static final long serialVersionUID = 1L;

        NotWritten(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /** The storage a snippet would go to: the first active one with content {@code snippets}. */
    static Optional<StorageInfo> storage(List<StorageInfo> storages) {
        return storages.stream().filter(s -> s.active() && s.holds(StorageInfo.SNIPPETS)).findFirst();
    }

    /**
     * Whether a snippet can be written for a VM on {@code node}, without opening anything: the storage, and a host
     * for the node (a link, or the Demo lab's simulated host). Empty when it can; else why not.
     */
    Optional<String> whyNot(ConnectionInfo c, String node, List<StorageInfo> storages) {
        if (storage(storages).isEmpty()) {
            return Optional.of("no storage of " + node + " holds snippets (add the content 'snippets' to a directory"
                    + " storage such as local)");
        }
        if (c.kind() == ConnectionInfo.Kind.DEMO || access == null) {
            return access == null ? Optional.of("host links are not available here") : Optional.empty();
        }
        try {
            access.resolve(c, node);
            return Optional.empty();
        } catch (HostException e) {
            return Optional.of(e.getMessage());
        }
    }

    static String fileName(VmRef vm, String vmName) {
        return "gpuforge-" + vm.id() + "-" + vmName.replaceAll("[^A-Za-z0-9.-]", "") + "-user.yaml";
    }

    /** Writes {@code userData} as the VM's snippet, byte for byte (a temp file moved into place). */
    Written write(ConnectionInfo c, String node, List<StorageInfo> storages, VmRef vm, String vmName, String userData,
                  HostKeyPrompt prompt) throws NotWritten {
        Optional<String> no = whyNot(c, node, storages);
        if (no.isPresent()) {
            throw new NotWritten(no.get(), null);
        }
        StorageInfo st = storage(storages).orElseThrow();
        try (HostAccess.Opened h = access.open(new HostTarget.Linked(c, node), prompt)) {
            String cfg = HostScripts.run(h, "Reading /etc/pve/storage.cfg",
                    "if [ -f \"$R/etc/pve/storage.cfg\" ]; then cat \"$R/etc/pve/storage.cfg\"; fi");
            String dir = storagePath(cfg, st.name()).orElseThrow(() -> new NotWritten("the storage " + st.name()
                    + " has no path in /etc/pve/storage.cfg of " + h.describe() + " (snippets need a directory storage)",
                    null));
            String file = fileName(vm, vmName);
            String snippets = dir.replaceAll("/+$", "") + "/snippets";
            String b64 = Base64.getEncoder().encodeToString(userData.getBytes(StandardCharsets.UTF_8));
            HostScripts.run(h, "Writing the cloud-init snippet " + snippets + "/" + file, "d=\"$R\"" + HostScripts.q(snippets)
                    + "\nmkdir -p \"$d\"\nprintf '%s' " + HostScripts.q(b64) + " | base64 -d > \"$d/." + file + ".tmp\"\n"
                    + "chmod 0644 \"$d/." + file + ".tmp\"\nmv -f \"$d/." + file + ".tmp\" \"$d/" + file + "\"");
            return new Written(st.name() + ":snippets/" + file, snippets + "/" + file, h.describe());
        } catch (HostException e) {
            throw new NotWritten(e.getMessage(), e);
        }
    }

    /** The {@code path} of a storage in {@code storage.cfg}; {@code local} is {@value #DEFAULT_LOCAL} without the file. */
    static Optional<String> storagePath(String storageCfg, String storage) {
        if (storageCfg.isBlank()) {
            return storage.equals("local") ? Optional.of(DEFAULT_LOCAL) : Optional.empty();
        }
        String current = null;
        for (String line : storageCfg.split("\n")) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            if (!Character.isWhitespace(line.charAt(0))) {
                Matcher m = SECTION.matcher(line.strip());
                current = m.matches() ? m.group(2) : null;
            } else if (storage.equals(current)) {
                String[] kv = line.strip().split("\\s+", 2);
                if (kv[0].equals("path") && kv.length == 2 && kv[1].startsWith("/")) {
                    return Optional.of(kv[1].strip());
                }
            }
        }
        return Optional.empty();
    }
}
