package io.gpuforge.app.vmcreate;

import io.gpuforge.app.host.HostAccess;
import io.gpuforge.app.host.HostKeyPrompt;
import io.gpuforge.app.host.HostScripts;
import io.gpuforge.app.host.HostTarget;
import io.gpuforge.app.connections.HostLinks;
import io.gpuforge.domain.connections.ConnectionInfo;
import io.gpuforge.domain.host.HostException;
import io.gpuforge.domain.vm.StorageInfo;
import io.gpuforge.domain.vm.VmRef;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A template's own cloud-init user-data on Proxmox VE: the API cannot upload snippets, so the file is written over the
 * node's SSH host link ({@link HostLinks}; a Demo lab node's simulated host) into the {@code snippets} directory of a
 * storage that holds them (its path from {@code /etc/pve/storage.cfg}), for {@code cicustom: user=STORAGE:snippets/…}.
 * The user-data holds the password's hash and the template's secrets, so the file is written root-only ({@code 0600},
 * under {@code umask 077}, its bytes through the script's standard input, never on a command line) and removed once
 * the first boot reported done ({@link SnippetCleanup}) and with the VM. A second snippet, the NoCloud meta-data with
 * an instance-id of GPUForge's, stays while the VM does: Proxmox VE derives the instance-id from the user-data, so
 * without it the user-data PVE writes in place of the removed one would be a new instance to cloud-init, which would
 * run the first boot again. Without a link or such a storage the VM gets Proxmox VE's own cloud-init fields instead,
 * and the caller says so. Blocking.
 */
final class CloudInitSnippets {

    private static final Pattern SECTION = Pattern.compile("^([a-z0-9]+):\\s*(\\S+)\\s*$");
    /** Proxmox VE's built-in storage configuration when {@code storage.cfg} does not exist. */
    private static final String DEFAULT_LOCAL = "/var/lib/vz";
    /** Storage types whose files every node (and whoever mounts the export) can read. */
    private static final Set<String> NETWORK_TYPES = Set.of("nfs", "cifs", "cephfs", "glusterfs");
    /** A snippet GPUForge wrote: its volume in {@code cicustom}. */
    private static final Pattern OURS = Pattern.compile("([A-Za-z0-9][A-Za-z0-9_.-]*):snippets/(gpuforge-[0-9]+-"
            + "[A-Za-z0-9.-]*-(user|meta)\\.yaml)");
    private static final SecureRandom RANDOM = new SecureRandom();
    private final HostAccess access;

    CloudInitSnippets(HostAccess access) {
        this.access = access;
    }

    /**
     * The snippets on the node: the volumes for {@code cicustom} (user-data, then meta-data), the user-data's file,
     * the host they were written on, and why the storage is readable beyond the node where it is (shared).
     */
    record Written(String userVolume, String metaVolume, String path, String host, Optional<String> shared) {
        /** The value of {@code cicustom}. */
        String cicustom() {
            return "user=" + userVolume + ",meta=" + metaVolume;
        }
    }

    /** Why no snippet can be (or was) written; the message says what to do. */
    static final class NotWritten extends Exception {
        private static final long serialVersionUID = 1L;

        NotWritten(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /**
     * The storage a snippet would go to: the first active one with content {@code snippets}, one on the node's own
     * disks before one on a network file system.
     */
    static Optional<StorageInfo> storage(List<StorageInfo> storages) {
        return storages.stream().filter(s -> s.active() && s.holds(StorageInfo.SNIPPETS))
                .min(Comparator.comparing(s -> NETWORK_TYPES.contains(s.type())));
    }

    /** Why a storage's files can be read beyond this node, as its type says; empty for a node's own disk. */
    static Optional<String> sharedByType(StorageInfo st) {
        return NETWORK_TYPES.contains(st.type()) ? Optional.of("the storage " + st.name() + " is " + st.type()
                + ", shared: its files are readable by whoever mounts it") : Optional.empty();
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

    static String metaFileName(VmRef vm, String vmName) {
        return fileName(vm, vmName).replaceAll("-user\\.yaml$", "-meta.yaml");
    }

    /** The snippets GPUForge wrote that a {@code cicustom} value names ({@code STORAGE:snippets/gpuforge-…}). */
    static List<String> ours(String cicustom) {
        List<String> out = new ArrayList<>();
        Matcher m = OURS.matcher(cicustom == null ? "" : cicustom);
        while (m.find()) {
            out.add(m.group());
        }
        return out;
    }

    /**
     * Writes {@code userData} as the VM's user-data snippet, byte for byte, root-only, with the meta-data snippet
     * beside it (a temp file of the directory moved into place, so a half-written snippet never lies there).
     */
    Written write(ConnectionInfo c, String node, List<StorageInfo> storages, VmRef vm, String vmName, String userData,
                  HostKeyPrompt prompt) throws NotWritten {
        Optional<String> no = whyNot(c, node, storages);
        if (no.isPresent()) {
            throw new NotWritten(no.get(), null);
        }
        StorageInfo st = storage(storages).orElseThrow();
        try (HostAccess.Opened h = access.open(new HostTarget.Linked(c, node), prompt)) {
            String cfg = storageCfg(h);
            String dir = storagePath(cfg, st.name()).orElseThrow(() -> new NotWritten("the storage " + st.name()
                    + " has no path in /etc/pve/storage.cfg of " + h.describe() + " (snippets need a directory storage)",
                    null));
            String snippets = dir.replaceAll("/+$", "") + "/snippets";
            String file = fileName(vm, vmName);
            String meta = metaFileName(vm, vmName);
            String metaData = "instance-id: gpuforge-" + vm.id() + "-" + HexFormat.of().formatHex(randomBytes()) + "\n"
                    + "local-hostname: " + vmName.replaceAll("[^A-Za-z0-9.-]", "") + "\n";
            HostScripts.run(h, "Writing the cloud-init snippets " + snippets + "/" + file + " and " + meta,
                    "umask 077\nd=\"$R\"" + HostScripts.q(snippets) + "\nmkdir -p \"$d\"\n"
                    + put(file, userData) + put(meta, metaData));
            Optional<String> shared = sharedByType(st).or(() -> sharedFlag(cfg, st.name()).map(x -> "the storage "
                    + st.name() + " is marked shared in /etc/pve/storage.cfg: its files are readable by whoever"
                    + " mounts it"));
            return new Written(st.name() + ":snippets/" + file, st.name() + ":snippets/" + meta, snippets + "/" + file,
                    h.describe(), shared);
        } catch (HostException e) {
            throw new NotWritten(e.getMessage(), e);
        }
    }

    /**
     * Removes the snippets GPUForge wrote that {@code volumes} name (others are never touched); returns the files
     * removed (those that were there).
     */
    List<String> remove(ConnectionInfo c, String node, List<String> volumes, HostKeyPrompt prompt) throws NotWritten {
        List<String> ours = volumes.stream().filter(v -> OURS.matcher(v).matches()).toList();
        if (ours.isEmpty()) {
            return List.of();
        }
        if (access == null) {
            throw new NotWritten("host links are not available here", null);
        }
        try (HostAccess.Opened h = access.open(new HostTarget.Linked(c, node), prompt)) {
            String cfg = storageCfg(h);
            StringBuilder script = new StringBuilder();
            List<String> files = new ArrayList<>();
            for (String v : ours) {
                Matcher m = OURS.matcher(v);
                m.matches();
                Optional<String> dir = storagePath(cfg, m.group(1));
                if (dir.isEmpty()) {
                    throw new NotWritten("the storage " + m.group(1) + " has no path in /etc/pve/storage.cfg of "
                            + h.describe(), null);
                }
                String f = dir.get().replaceAll("/+$", "") + "/snippets/" + m.group(2);
                files.add(f);
                script.append("if [ -e \"$R\"").append(HostScripts.q(f)).append(" ]; then rm -f \"$R\"")
                        .append(HostScripts.q(f)).append("; echo ").append(HostScripts.q(f)).append("; fi\n");
            }
            String removed = HostScripts.run(h, "Removing the cloud-init snippets " + String.join(", ", files),
                    script.toString());
            return removed.lines().filter(l -> !l.isBlank()).toList();
        } catch (HostException e) {
            throw new NotWritten(e.getMessage(), e);
        }
    }

    private static String storageCfg(HostAccess.Opened h) throws HostException {
        return HostScripts.run(h, "Reading /etc/pve/storage.cfg",
                "if [ -f \"$R/etc/pve/storage.cfg\" ]; then cat \"$R/etc/pve/storage.cfg\"; fi");
    }

    /**
     * The lines that write one file into {@code $d} root-only: a temp file of the directory (mktemp: a name nobody
     * can take before), the bytes from base64 through printf, a shell built-in (so no process's command line holds
     * them), mode 0600, then moved into place.
     */
    private static String put(String file, String text) {
        String b64 = Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8));
        return "t=$(mktemp \"$d/.gpuforge.XXXXXX\")\nprintf '%s' " + HostScripts.q(b64) + " | base64 -d > \"$t\"\n"
                + "chmod 0600 \"$t\"\nmv -f \"$t\" \"$d/" + file + "\"\n";
    }

    private static byte[] randomBytes() {
        byte[] b = new byte[8];
        RANDOM.nextBytes(b);
        return b;
    }

    /** Whether a storage of {@code storage.cfg} has {@code shared 1}. */
    static Optional<Boolean> sharedFlag(String storageCfg, String storage) {
        return option(storageCfg, storage, "shared").filter(v -> v.equals("1")).map(v -> true);
    }

    /** The {@code path} of a storage in {@code storage.cfg}; {@code local} is {@value #DEFAULT_LOCAL} without the file. */
    static Optional<String> storagePath(String storageCfg, String storage) {
        if (storageCfg.isBlank()) {
            return storage.equals("local") ? Optional.of(DEFAULT_LOCAL) : Optional.empty();
        }
        return option(storageCfg, storage, "path").filter(p -> p.startsWith("/"));
    }

    /** An option's value of a storage in {@code storage.cfg}. */
    private static Optional<String> option(String storageCfg, String storage, String key) {
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
                if (kv[0].equals(key) && kv.length == 2) {
                    return Optional.of(kv[1].strip());
                }
            }
        }
        return Optional.empty();
    }
}
