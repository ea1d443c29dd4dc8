package io.gpuforge.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.gpuforge.domain.host.HostFacts;
import io.gpuforge.host.ssh.HostKeyPolicy;
import io.gpuforge.host.probe.HostProbe;
import io.gpuforge.host.HostShell;
import io.gpuforge.host.ssh.SshShell;
import io.gpuforge.host.ssh.SshTarget;
import io.gpuforge.testing.SysrootBuilder;
import io.gpuforge.testing.SysrootSshServer;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Facts of a 120-device host over loopback SSH: GPUForge's one-round-trip probe against the classic
 * {@code for d in /sys/kernel/iommu_groups/*}{@code /devices/*; do lspci -nns …; done} loop on the same
 * sysroot over the same SSH session. Wall time (median of 7) and processes started (strace execve count).
 * Writes target/bench/host-probe.json. Needs lspci (pciutils) and strace.
 */
@Tag("bench")
class HostProbeBench {

    private static final int DEVICES = 120;
    private static final int RUNS = 7;

    @TempDir
    Path dir;

    @Test
    void probeVersusClassicLoop() throws Exception {
        assertThat(new File("/usr/bin/lspci")).as("apt-get install pciutils").exists();
        Path root = host(dir.resolve("root"));
        // the classic loop as an admin would type it for this tree (the root written into the command)
        String classic = "R=" + quote(root.toString()) + "; for d in \"$R\"/sys/kernel/iommu_groups/*/devices/*; do"
                + " n=${d#*/iommu_groups/}; n=${n%%/*}; printf 'IOMMU Group %s ' \"$n\";"
                + " lspci -A linux-sysfs -O sysfs.path=\"$R/sys/bus/pci\" -nns \"${d##*/}\"; done";
        List<Long> probeMs = new ArrayList<>();
        List<Long> classicMs = new ArrayList<>();
        int classicLines;
        int devices;
        try (SysrootSshServer server = new SysrootSshServer(root, dir.resolve("key.ser"));
             SshShell shell = SshShell.connect(new SshTarget("root", "127.0.0.1", server.port()),
                     new SshShell.Credentials(Optional.of(SysrootSshServer.PASSWORD.toCharArray()), Optional.empty(),
                             Optional.empty()), dir.resolve("known_hosts"), HostKeyPolicy.acceptNew(), Duration.ofSeconds(20))) {
            HostProbe probe = new HostProbe();
            HostFacts warm = probe.probe(shell, false);
            devices = warm.pci().devices().size();
            HostShell.Result c = shell.run(classic, new byte[0], Duration.ofSeconds(120));
            classicLines = new String(c.stdout(), StandardCharsets.UTF_8).split("\n").length;
            for (int i = 0; i < RUNS; i++) {
                long t0 = System.nanoTime();
                probe.probe(shell, false);
                probeMs.add((System.nanoTime() - t0) / 1_000_000);
                t0 = System.nanoTime();
                shell.run(classic, new byte[0], Duration.ofSeconds(120));
                classicMs.add((System.nanoTime() - t0) / 1_000_000);
            }
        }
        List<Long> localMs = new ArrayList<>();
        for (int i = 0; i < RUNS; i++) {
            long t0 = System.nanoTime();
            new HostProbe().probeLocal(Optional.of(root));
            localMs.add((System.nanoTime() - t0) / 1_000_000);
        }
        int probeProcs = execs("sh -s -- " + quote(root.toString()), HostProbe.script());
        int classicProcs = execs(classic, "");
        long p = median(probeMs);
        long k = median(classicMs);
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("benchmark", "host-facts-120-devices-over-ssh");
        out.put("devices", devices);
        out.put("runs", RUNS);
        out.put("gpuforge_probe_ms", probeMs);
        out.put("gpuforge_probe_median_ms", p);
        out.put("gpuforge_probe_processes", probeProcs);
        out.put("gpuforge_probe_same_sysroot_without_ssh_median_ms", median(localMs));
        out.put("gpuforge_probe_ssh_channels", 1);
        out.put("classic_lspci_loop_ms", classicMs);
        out.put("classic_lspci_loop_median_ms", k);
        out.put("classic_lspci_loop_processes", classicProcs);
        out.put("classic_lines", classicLines);
        out.put("speedup", Math.round(100.0 * k / Math.max(1, p)) / 100.0);
        Files.createDirectories(Path.of("target/bench"));
        Files.writeString(Path.of("target/bench/host-probe-sysroot.txt"), root.toString());
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(Path.of("target/bench/host-probe.json").toFile(), out);
        assertThat(devices).isEqualTo(DEVICES);
        assertThat(classicLines).isEqualTo(DEVICES);
    }

    /** Processes a script starts (execve calls under strace -f), on the sysroot. */
    private static int execs(String command, String stdin) throws Exception {
        Path log = Files.createTempFile("strace", ".log");
        ProcessBuilder pb = new ProcessBuilder("strace", "-f", "-qq", "-e", "trace=execve", "-o", log.toString(), "/bin/sh",
                "-c", command).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD);
        Process pr = pb.start();
        pr.getOutputStream().write(stdin.getBytes(StandardCharsets.UTF_8));
        pr.getOutputStream().close();
        pr.waitFor();
        long n = Files.readAllLines(log).stream().filter(l -> l.contains("execve(") && !l.contains("ENOENT")).count();
        return (int) n;
    }

    private static String quote(String s) {
        return "'" + s.replace("'", "'\\''") + "'";
    }

    private static long median(List<Long> v) {
        List<Long> s = new ArrayList<>(v);
        s.sort(Long::compare);
        return s.get(s.size() / 2);
    }

    /** 120 functions: bridges, 24 GPUs with audio, NVMe, NICs, USB, in groups like a dual-socket server. */
    private static Path host(Path root) throws Exception {
        SysrootBuilder b = new SysrootBuilder(root).linux("big", "Debian GNU/Linux 12 (bookworm)", "6.8.12-4-pve",
                "AuthenticAMD", "AMD EPYC 9654 96-Core Processor", "root=ZFS=rpool/ROOT/pve-1 boot=zfs").acpi(false, true);
        int n = 0;
        int group = 0;
        for (int bus = 1; n < DEVICES; bus++) {
            String slot = String.format(Locale.ROOT, "0000:%02x:00", bus);
            if (bus % 5 == 0 && n + 2 <= DEVICES) {
                b.pci(slot + ".0", "10de", "2204", "030000", group, "vfio-pci", 16L << 20).config(slot + ".0", "10de", "2204", "030000");
                b.pci(slot + ".1", "10de", "1aef", "040300", group, "vfio-pci", 0x4000).config(slot + ".1", "10de", "1aef", "040300");
                n += 2;
            } else {
                String[] kinds = {"060400:1022:1483:pcieport", "010802:144d:a80a:nvme", "020000:14e4:165f:tg3", "0c0330:1022:149c:xhci_hcd"};
                String[] k = kinds[bus % 4].split(":");
                b.pci(slot + ".0", k[1], k[2], k[0], group, k[3], 0x10000).config(slot + ".0", k[1], k[2], k[0]);
                n++;
            }
            group++;
        }
        return root;
    }
}
