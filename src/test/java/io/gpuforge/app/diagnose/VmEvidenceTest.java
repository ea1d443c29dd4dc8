package io.gpuforge.app.diagnose;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.app.AppContext;
import io.gpuforge.app.settings.LanguageChoice;
import io.gpuforge.app.settings.ThemeChoice;
import io.gpuforge.demo.PveSimulator;
import io.gpuforge.demo.SimCluster;
import io.gpuforge.domain.connections.ConnectionInfo;
import io.gpuforge.domain.diagnose.Collected;
import io.gpuforge.domain.diagnose.Diagnosis;
import io.gpuforge.domain.diagnose.LogSource;
import io.gpuforge.domain.vm.VmRef;
import io.gpuforge.hypervisor.proxmox.PveContract;
import io.gpuforge.testing.SysrootSshServer;
import io.gpuforge.testing.TestContexts;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The evidence of a VM's failed start, fetched by GPUForge itself: from the Proxmox VE simulator the failed
 * {@code qmstart} task's log and the VM's configuration, and over the node's host link (the embedded SSH server, a
 * fixture host whose {@code journalctl} prints a kernel log as a PVE node writes it) the kernel log from a minute
 * before the start, and a running VM's guest over its agent ({@code nvidia-smi -L}). Each source is in
 * {@code collected} with what was read, or why not; the cause is named from them together.
 * A node without a host link says so for its kernel log.
 */
class VmEvidenceTest {

    private static final io.gpuforge.app.words.Words EN =
            new io.gpuforge.app.words.Words(java.util.Locale.ENGLISH);

    @TempDir
    Path dir;

    @Test
    void theTaskLogTheConfigurationAndTheNodesKernelLogAreCollectedAndDiagnosed() throws Exception {
        Path root = dir.resolve("pve-4090");
        Path bin = Files.createDirectories(root.resolve("usr/bin"));
        Path journalctl = bin.resolve("journalctl");
        Files.writeString(journalctl, "#!/bin/sh\necho \"$@\" > '" + dir.resolve("journalctl-args") + "'\n"
                + "cat <<'EOF'\n"
                + "2026-12-06T10:41:58+0100 pve-4090 kernel: vfio-pci 0000:02:00.0: vgaarb: changed VGA decodes\n"
                + "2026-12-06T10:42:01+0100 pve-4090 kernel: vfio-pci 0000:02:00.1: not ready 1023ms after FLR;"
                + " waiting\n"
                + "2026-12-06T10:42:03+0100 pve-4090 kernel: snd_hda_intel 0000:02:00.1: enabling device\n"
                + "EOF\n");
        Files.setPosixFilePermissions(journalctl, PosixFilePermissions.fromString("rwxr-xr-x"));
        // the card's audio function left on its host driver, in the same IOMMU group
        new io.gpuforge.testing.SysrootBuilder(root)
                .pci("0000:02:00.0", "10de", "2684", "030000", 13, "vfio-pci", 16L << 20)
                .pci("0000:02:00.1", "10de", "22ba", "040300", 13, "snd_hda_intel", 16L << 10)
                .file("proc/iomem", "f0000000-f0ffffff : 0000:02:00.0\n  f0000000-f0ffffff : vfio-pci\n");
        try (PveSimulator sim = new PveSimulator(SimCluster.contractLab());
             SysrootSshServer ssh = new SysrootSshServer(root, dir.resolve("host-key.ser"));
             AppContext ctx = TestContexts.create(dir.resolve("home"), dir.resolve("no-sysroot"), ThemeChoice.LIGHT,
                     LanguageChoice.ENGLISH)) {
            ctx.secrets().createVault("vault passphrase".toCharArray());
            ConnectionInfo lab = LinkedLab.lab(ctx, sim);
            LinkedLab.linkSshHost(ctx, ssh, lab, "pve-4090");

            sim.cluster().failStarts(102, List.of("kvm: -device vfio-pci,host=0000:02:00.0,id=hostpci0.0,"
                    + "bus=ich9-pcie-port-1,addr=0x0.0,multifunction=on: vfio 0000:02:00.0: group 13 is not viable"),
                    "start failed: QEMU exited with code 1");
            sim.tokenClient(PveContract.load()).put("/nodes/pve-4090/qemu/102/config",
                    Map.of("hostpci0", "mapping=gpu-4090-b,pcie=1"));
            sim.tokenClient(PveContract.load()).post("/nodes/pve-4090/qemu/102/status/start", Map.of());
            VmRef vm = new VmRef("pve-4090", "102");
            io.gpuforge.testing.Eventually.untilHolds("the failed start in the task log", java.time.Duration.ofSeconds(30),
                    () -> ctx.sessions().of(lab).lastFailedStart(vm, 10).isPresent());

            Diagnosis d = ctx.diagnosis().vm(ctx.sessions().of(lab), lab, vm, ctx.hostLogs(), (h, t, f) -> false,
                    List.of(), () -> null);
            assertThat(d.cause()).isEqualTo("group-not-viable");
            Collected task = d.collected().get(0);
            assertThat(task.source()).isEqualTo(LogSource.TASK_LOG);
            assertThat(task.name()).contains(":qmstart:102:");
            assertThat(task.read()).isTrue();
            Collected kernel = d.collected().stream().filter(c -> c.name().equals("the kernel log of pve-4090"))
                    .findFirst().orElseThrow();
            assertThat(kernel.read()).as(kernel.problem().map(EN::text).orElse("")).isTrue();
            assertThat(kernel.source()).isEqualTo(LogSource.KERNEL_LOG);
            assertThat(kernel.lines()).isEqualTo(3);
            assertThat(kernel.millis()).as("the time it took over SSH").isPositive();
            assertThat(Files.readString(dir.resolve("journalctl-args"))).as("since a minute before the start")
                    .startsWith("-k --no-pager -q -o short-iso --since @");
            assertThat(d.causes().get(0).evidence()).anyMatch(e -> e.text().contains("group 13 is not viable"));
            Collected functions = d.collected().stream().filter(c -> c.name().equals("the GPU's functions on pve-4090"))
                    .findFirst().orElseThrow();
            assertThat(functions.read()).as(functions.problem().map(EN::text).orElse("")).isTrue();
            assertThat(functions.lines()).as("driver, reset, power, two group members, iomem, memlock")
                    .isGreaterThanOrEqualTo(6);
            assertThat(d.causes().get(0).evidence()).as("the audio function on its host driver supports it")
                    .anyMatch(e -> e.text().contains("IOMMU group 13: 0000:02:00.1: Kernel driver in use: snd_hda_intel"));

            assertThat(d.collected()).as("a VM that did not start has no guest to ask").anySatisfy(c -> {
                assertThat(c.source()).isEqualTo(LogSource.GUEST);
                assertThat(c.problem().map(EN::text)).get().asString().contains("is not running: only a running guest");
            });

            // a running VM's guest is asked over its agent: nvidia-smi -L lists its card
            Diagnosis running = ctx.diagnosis().vm(ctx.sessions().of(lab), lab, new VmRef("pve-4090", "101"),
                    ctx.hostLogs(), (h, t, f) -> false, List.of(), () -> null);
            assertThat(running.collected()).anySatisfy(c -> {
                assertThat(c.name()).isEqualTo("nvidia-smi -L in VM 101");
                assertThat(c.read()).as(c.problem().map(EN::text).orElse("")).isTrue();
                assertThat(c.lines()).isPositive();
            });

            // pve-3090 has no host link: its kernel log is named as not read, with why
            Diagnosis other = ctx.diagnosis().vm(ctx.sessions().of(lab), lab, new VmRef("pve-3090", "9000"),
                    ctx.hostLogs(), (h, t, f) -> false, List.of(), () -> null);
            assertThat(other.collected()).anySatisfy(c -> {
                assertThat(c.name()).isEqualTo("the kernel log of pve-3090");
                assertThat(c.problem().map(EN::text)).get().asString().contains("could not be read");
            });
        }
    }

    /**
     * libvirt keeps no record of a failed start: GPUForge's own start of the domain (its task log, libvirt's error in
     * it) is the evidence, and the cause is named from libvirt's words.
     */
    @Test
    void aLibvirtDomainsFailedStartIsReadFromGpuforgesOwnTaskLog() throws Exception {
        try (AppContext ctx = TestContexts.create(dir.resolve("home"), dir.resolve("no-sysroot"), ThemeChoice.LIGHT,
                LanguageChoice.ENGLISH)) {
            ctx.secrets().createVault("vault passphrase".toCharArray());
            ConnectionInfo kvm = ctx.connections().addLibvirt("kvm", "test:///default");
            VmRef vm;
            try {
                vm = ctx.sessions().of(kvm).inventory().vms().get(0).ref();
            } catch (io.gpuforge.domain.BackendException e) {
                org.junit.jupiter.api.Assumptions.assumeFalse(e.getMessage().contains("not installed")
                        && !"true".equals(System.getenv("CI")), e.getMessage() + " (apt-get install libvirt0)");
                throw e;
            }
            Diagnosis none = ctx.diagnosis().vm(ctx.sessions().of(kvm), kvm, vm, ctx.hostLogs(), (h, t, f) -> false,
                    List.of(), () -> null);
            assertThat(none.collected().get(0).problem().map(EN::text)).get().asString()
                    .contains("GPUForge's task log has none of VM " + vm.id());

            ctx.taskLog().begin(kvm, io.gpuforge.app.tasks.TaskLog.VM_START, vm.toString(), "Start VM " + vm.id())
                    .failed(new IllegalStateException("internal error: qemu unexpectedly closed the monitor:"
                            + " 2026-12-06T10:42:01.123456Z qemu-system-x86_64: -device vfio-pci,host=0000:01:00.0,"
                            + "id=hostdev0,bus=pci.0,addr=0x5: vfio 0000:01:00.0: group 1 is not viable"));
            Diagnosis d = ctx.diagnosis().vm(ctx.sessions().of(kvm), kvm, vm, ctx.hostLogs(), (h, t, f) -> false,
                    List.of(), () -> null);
            assertThat(d.cause()).isEqualTo("group-not-viable");
            assertThat(d.collected().get(0).name()).startsWith("libvirt's error when GPUForge started VM " + vm.id());
            assertThat(d.collected().get(0).read()).isTrue();
        }
    }
}
