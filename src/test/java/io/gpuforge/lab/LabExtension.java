package io.gpuforge.lab;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.Locale;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Owns the lab machine of a test class: builds or finds the guest, boots it once before the first test, shares
 * it between the class's tests (they run in order and each leaves the state the next one starts from), and
 * kills QEMU after the last, whatever happened. Counts the boots and the time of each test into
 * {@code target/lab/report.txt}. Register it on a static field:
 * {@code @RegisterExtension static final LabExtension LAB = LabExtension.grub();}
 */
final class LabExtension implements BeforeAllCallback, AfterAllCallback, BeforeEachCallback, AfterEachCallback {

    private static final Logger LOG = LoggerFactory.getLogger(LabExtension.class);
    private final String kind;
    private final String image;
    private LabMachine machine;
    private LabCli cli;
    private Path workDir;
    private int bootsBefore;
    private Instant testStart;
    private Instant classStart;

    private LabExtension(String kind, String image) {
        this.kind = kind;
        this.image = image;
    }

    /** The busybox guest (stand-in boot tools, see src/test/lab/README.md) on a copy of {@code disk.img}. */
    static LabExtension busybox() {
        return new LabExtension("busybox", "disk.img");
    }

    /** The Debian guest with GRUB. */
    static LabExtension grub() {
        return new LabExtension("grub", "");
    }

    /** The Proxmox-style Debian guest: systemd-boot through /etc/kernel/cmdline and proxmox-boot-tool. */
    static LabExtension pve() {
        return new LabExtension("pve", "");
    }

    LabMachine machine() {
        return machine;
    }

    LabCli cli() {
        return cli;
    }

    @Override
    public void beforeAll(ExtensionContext context) throws IOException {
        classStart = Instant.now();
        LabArtifacts artifacts = new LabArtifacts();
        Files.createDirectories(artifacts.labDir().resolve("runs"));
        workDir = Files.createTempDirectory(artifacts.labDir().resolve("runs"), context.getRequiredTestClass().getSimpleName() + "-");
        machine = kind.equals("busybox") ? LabMachine.busybox(workDir, artifacts, image)
                : LabMachine.debian(workDir, artifacts, kind);
        cli = new LabCli(machine);
        Instant start = Instant.now();
        machine.boot();
        report(context.getRequiredTestClass().getSimpleName() + " (first boot)", 1, Duration.between(start, Instant.now()));
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        bootsBefore = machine == null ? 0 : machine.boots();
        testStart = Instant.now();
    }

    @Override
    public void afterEach(ExtensionContext context) throws IOException {
        if (machine != null) {
            String name = context.getRequiredTestClass().getSimpleName() + "#" + context.getRequiredTestMethod().getName()
                    + (context.getExecutionException().isPresent() ? " (FAILED)" : "");
            report(name, machine.boots() - bootsBefore, Duration.between(testStart, Instant.now()));
        }
    }

    @Override
    public void afterAll(ExtensionContext context) throws IOException {
        try {
            if (machine != null) {
                report(context.getRequiredTestClass().getSimpleName() + " (whole class, boot time "
                        + machine.bootTime().toSeconds() + " s)", machine.boots(), Duration.between(classStart, Instant.now()));
            }
        } finally {
            if (machine != null) {
                machine.close();
            }
            deleteDisks();
        }
    }

    /** The disk copies are large; the logs stay for a look after a failure. */
    private void deleteDisks() throws IOException {
        if (workDir == null || !Files.isDirectory(workDir)) {
            return;
        }
        try (Stream<Path> files = Files.walk(workDir)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                String n = p.getFileName().toString();
                if (n.endsWith(".img") || n.equals("vmlinuz") || n.equals("initrd.img")) {
                    Files.delete(p);
                }
            }
        }
    }

    private void report(String what, int boots, Duration took) throws IOException {
        String line = String.format(Locale.ROOT, "%-80s boots=%d time=%ds%n", what, boots, took.toSeconds());
        LOG.info("lab: {}", line.strip());
        Path file = new LabArtifacts().labDir().resolve("report.txt");
        Files.writeString(file, line, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }
}
