package io.gpuforge.lab;

import io.gpuforge.host.ssh.HostKeyPolicy;
import io.gpuforge.host.HostShell;
import io.gpuforge.host.ProbeException;
import io.gpuforge.host.ssh.SshShell;
import io.gpuforge.host.ssh.SshTarget;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The lab machine of one test class: boots it (through the {@link Firmware} for a Debian disk, or the fast
 * kernel + initramfs), waits for SSH, reboots it, and always kills QEMU in the end. Its own shell (ground
 * truth for the assertions) logs in with the product's SSH client, like the CLI under test does; scenarios
 * change the machine only through the CLI ({@link LabCli}).
 */
final class LabMachine implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(LabMachine.class);
    private static final Duration BOOT_TIMEOUT = Duration.ofMinutes(4);
    private final Path workDir;
    private final LabArtifacts artifacts;
    private final Firmware firmware;
    private final Path disk;
    private final String shutdown;
    private Path images;
    private Topology topology;
    private Qemu qemu;
    private SshShell shell;
    private int boots;
    private Duration bootTime = Duration.ZERO;
    private String lastCmdline = "";

    private LabMachine(Path workDir, LabArtifacts artifacts, Path disk, int memoryMb, Firmware.Loader loader,
                       String shutdown) {
        this.workDir = workDir;
        this.artifacts = artifacts;
        this.disk = disk;
        this.topology = Topology.withDisk(disk, memoryMb);
        this.firmware = new Firmware(disk, loader, workDir.resolve("firmware"), artifacts);
        this.shutdown = shutdown;
    }

    /**
     * The busybox guest (stock Debian kernel; busybox, dropbear, kmod and the lab's stand-in boot tools on a small
     * ext4 disk, see src/test/lab/busybox) on its own copy of a built disk: {@code disk.img} or
     * {@code disk-iommu-off.img}.
     */
    static LabMachine busybox(Path workDir, LabArtifacts artifacts, String image) throws IOException {
        Path disk = workDir.resolve("disk.img");
        Files.createDirectories(workDir);
        Path images = artifacts.fastGuest();
        copySparse(images.resolve(image), disk);
        // no journal on that disk: after a sync the firmware's debugfs reads what the guest wrote
        LabMachine m = new LabMachine(workDir, artifacts, disk, 512, Firmware.Loader.GRUB, "sync; reboot -f");
        m.images = images;
        return m;
    }

    /** A Debian guest on its own copy of an installed disk: {@code grub} or {@code pve} (systemd-boot). */
    static LabMachine debian(Path workDir, LabArtifacts artifacts, String personality) throws IOException {
        Path image = artifacts.installedDisk(personality);
        Path disk = workDir.resolve(personality + ".img");
        Files.createDirectories(workDir);
        copySparse(image, disk);
        Firmware.Loader loader = personality.equals("pve") ? Firmware.Loader.SYSTEMD_BOOT : Firmware.Loader.GRUB;
        return new LabMachine(workDir, artifacts, disk, 1024, loader, "systemctl reboot");
    }

    /**
     * Powers off and starts again from a pristine copy of a built busybox disk, in the machine with its boot console
     * (instead of undoing a scenario with rollback + reboot where the scenario is not about rollback): one boot.
     */
    void bootFresh(String image) throws IOException {
        if (images == null) {
            throw new IllegalStateException("only the busybox guest starts from a fresh disk");
        }
        powerOff();
        copySparse(images.resolve(image), disk);
        topology = Topology.withDisk(disk, topology.memoryMb());
        boot();
    }

    private static void copySparse(Path from, Path to) throws IOException {
        try {
            Files.deleteIfExists(to);
            Process p = new ProcessBuilder("cp", "--sparse=always", from.toString(), to.toString()).inheritIO().start();
            if (p.waitFor() != 0) {
                throw new IOException("cp " + from + " " + to + " failed");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
    }

    /** Powers on (the machine must be off). */
    void boot() throws IOException {
        Instant start = Instant.now();
        Qemu.BootEntry entry = firmware.entry();
        lastCmdline = entry.cmdline();
        boots++;
        qemu = Qemu.start(topology, entry, workDir, boots);
        shell = awaitSsh();
        Duration took = Duration.between(start, Instant.now());
        bootTime = bootTime.plus(took);
        LOG.info("boot {} of {} ready in {} s: {}", boots, workDir.getFileName(), took.toSeconds(), entry.cmdline());
    }

    private SshShell awaitSsh() throws IOException {
        Instant deadline = Instant.now().plus(BOOT_TIMEOUT);
        ProbeException last = null;
        while (Instant.now().isBefore(deadline)) {
            if (!qemu.alive()) {
                throw new IOException("The lab machine stopped while booting (" + qemu.exitDescription()
                        + "); serial console:\n" + qemu.serialTail(40));
            }
            try {
                SshShell s = SshShell.connect(new SshTarget("root", "127.0.0.1", qemu.sshPort()),
                        new SshShell.Credentials(Optional.empty(), Optional.of(artifacts.identity()), Optional.empty()),
                        workDir.resolve("lab_known_hosts"), HostKeyPolicy.acceptNew(), Duration.ofSeconds(10));
                HostShell.Result r = s.run("true", new byte[0], Duration.ofSeconds(20));
                if (r.exitCode() == 0) {
                    return s;
                }
                s.close();
            } catch (ProbeException e) {
                last = e;
            }
            sleep(Duration.ofSeconds(1));
        }
        throw new IOException("No SSH on the lab machine after " + BOOT_TIMEOUT.toMinutes() + " min ("
                + (last == null ? "" : last.getMessage()) + "); serial console:\n" + qemu.serialTail(40));
    }

    private static void sleep(Duration d) throws IOException {
        try {
            Thread.sleep(d.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
    }

    /** Reboots as the admin does ({@code systemctl reboot}); the firmware then boots what the guest configured. */
    void reboot() throws IOException {
        powerOff();
        boot();
    }

    /** Powers off: {@code systemctl reboot} on a Debian guest, {@code sync; reboot -f} on the busybox one. */
    void powerOff() throws IOException {
        if (qemu == null) {
            return;
        }
        try {
            try {
                shell.run(shutdown, new byte[0], Duration.ofSeconds(20));
            } catch (ProbeException e) {
                LOG.debug("the connection dropped while rebooting, as expected: {}", e.getMessage());
            }
            if (!qemu.awaitExit(Duration.ofMinutes(2))) {
                LOG.warn("the lab machine did not shut down in 2 minutes; killing it");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        } finally {
            closeShell();
            qemu.close();
            qemu = null;
        }
    }

    /** Boots again without the cirrus console: the stand-in GPU becomes the boot VGA. */
    void rebootWithoutBootConsole() throws IOException {
        powerOff();
        topology = topology.withoutBootConsole();
        boot();
    }

    /** Runs a script as root on the machine (the lab's ground truth); fails unless it exits 0. */
    String sh(String script) throws IOException {
        HostShell.Result r = run(script);
        if (r.exitCode() != 0) {
            throw new IOException("on the lab machine: " + script + "\nexit " + r.exitCode() + ": " + r.stderr());
        }
        return new String(r.stdout(), StandardCharsets.UTF_8);
    }

    HostShell.Result run(String script) throws IOException {
        try {
            return shell.run("sh -s", script.getBytes(StandardCharsets.UTF_8), Duration.ofMinutes(5));
        } catch (ProbeException e) {
            throw new IOException("the lab's shell failed: " + e.getMessage(), e);
        }
    }

    /** A file's bytes on the machine, or empty if absent. */
    Optional<byte[]> read(String path) throws IOException {
        HostShell.Result r = run("[ -e '" + path + "' ] || exit 3; cat '" + path + "'");
        if (r.exitCode() == 3) {
            return Optional.empty();
        }
        if (r.exitCode() != 0) {
            throw new IOException("cannot read " + path + ": " + r.stderr());
        }
        return Optional.of(r.stdout());
    }

    /** The kernel command line the firmware booted last (what the guest's tooling configured). */
    String bootedCmdline() {
        return lastCmdline;
    }

    String sshTarget() {
        return "root@127.0.0.1:" + qemu.sshPort();
    }

    Path identity() {
        return artifacts.identity();
    }

    Path workDir() {
        return workDir;
    }

    int boots() {
        return boots;
    }

    Duration bootTime() {
        return bootTime;
    }

    private void closeShell() {
        if (shell != null) {
            shell.close();
            shell = null;
        }
    }

    @Override
    public void close() {
        closeShell();
        if (qemu != null) {
            qemu.close();
            qemu = null;
        }
    }
}
