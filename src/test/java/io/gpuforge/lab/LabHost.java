package io.gpuforge.lab;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The state of a Debian lab guest that the passthrough scenarios compare: files, boot configuration, drivers. */
final class LabHost {

    /** Which boot loader the guest's tooling feeds. */
    enum Boot { GRUB, SYSTEMD_BOOT }

    private final LabMachine machine;
    private final Boot boot;

    LabHost(LabMachine machine, Boot boot) {
        this.machine = machine;
        this.boot = boot;
    }

    /** The planned files' contents (empty = absent), read in one round trip (each costs seconds under emulation). */
    Map<String, Optional<byte[]>> snapshot(List<String> paths) throws IOException {
        StringBuilder script = new StringBuilder();
        for (String p : paths) {
            script.append("if [ -e '").append(p).append("' ]; then printf 'P '; base64 '").append(p)
                    .append("' | tr -d '\\n'; echo; else echo A; fi\n");
        }
        List<String> lines = machine.sh(script.toString()).lines().toList();
        if (lines.size() != paths.size()) {
            throw new IOException("snapshot of " + paths + " gave " + lines.size() + " lines: " + lines);
        }
        Map<String, Optional<byte[]>> out = new LinkedHashMap<>();
        for (int i = 0; i < paths.size(); i++) {
            String l = lines.get(i);
            out.put(paths.get(i), l.startsWith("P") ? Optional.of(Base64.getDecoder().decode(l.substring(1).strip()))
                    : Optional.empty());
        }
        return out;
    }

    static List<String> paths(JsonNode plan) {
        List<String> out = new ArrayList<>();
        plan.get("edits").forEach(e -> out.add(e.get("path").asText()));
        return out;
    }

    static Map<String, Optional<byte[]>> planned(JsonNode plan) {
        Map<String, Optional<byte[]>> out = new LinkedHashMap<>();
        plan.get("edits").forEach(e -> out.put(e.get("path").asText(),
                Optional.of(e.get("after").asText().getBytes(StandardCharsets.UTF_8))));
        return out;
    }

    /** The paths whose content differs between two snapshots. */
    static List<String> differences(Map<String, Optional<byte[]>> a, Map<String, Optional<byte[]>> b) {
        List<String> out = new ArrayList<>();
        for (String p : a.keySet()) {
            Optional<byte[]> x = a.get(p);
            Optional<byte[]> y = b.getOrDefault(p, Optional.empty());
            boolean same = x.isPresent() == y.isPresent() && (x.isEmpty() || Arrays.equals(x.get(), y.get()));
            if (!same) {
                out.add(p);
            }
        }
        return out;
    }

    /** The kernel command line the next boot gets from the boot configuration the guest's tooling generated. */
    String nextBootArgs() throws IOException {
        String script = boot == Boot.GRUB
                ? "awk '/^menuentry /{m=1} m && $1==\"linux\" {$1=\"\"; $2=\"\"; sub(/^ +/, \"\"); print; exit}' /boot/grub/grub.cfg"
                : "sed -n 's/^options *//p' $(ls /boot/efi/loader/entries/proxmox-*.conf | tail -n1)";
        return machine.sh(script).strip();
    }

    /** Whether the initramfs the next boot loads carries GPUForge's vfio options. */
    boolean nextInitramfsHasVfioOptions() throws IOException {
        String initrd = boot == Boot.GRUB ? "/boot/initrd.img-$(uname -r)"
                : "/boot/efi/EFI/proxmox/$(uname -r)/initrd.img-$(uname -r)";
        // lsinitramfs where initramfs-tools is installed; the busybox guest's stand-in writes a plain cpio
        return machine.run("{ if command -v lsinitramfs >/dev/null; then lsinitramfs " + initrd + "; else cpio -t < "
                + initrd + " 2>/dev/null; fi; } | grep -q 'etc/modprobe.d/gpuforge-vfio.conf'").exitCode() == 0;
    }

    String runningCmdline() throws IOException {
        return machine.sh("cat /proc/cmdline").strip();
    }

    GuestTruth truth() throws IOException {
        return GuestTruth.read(machine);
    }

    boolean exists(String path) throws IOException {
        return machine.run("[ -e '" + path + "' ]").exitCode() == 0;
    }

    void assertFilesAre(Map<String, Optional<byte[]>> expected, String what) throws IOException {
        Map<String, Optional<byte[]>> now = snapshot(new ArrayList<>(expected.keySet()));
        assertThat(differences(expected, now)).as("files that are not %s", what).isEmpty();
    }
}
