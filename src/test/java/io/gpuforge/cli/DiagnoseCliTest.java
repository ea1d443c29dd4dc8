package io.gpuforge.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.gpuforge.diagnose.DiagnoseCases;
import io.gpuforge.testing.SharedFixtures;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code gpuforge diagnose}: every real case gives its cause, healthy logs are unknown, bad input is refused. */
class DiagnoseCliTest {

    @TempDir
    Path home;

    private static int run(CliHarness cli, String... args) {
        return cli.run("", args);
    }

    private CliHarness cli() {
        return new CliHarness(home.resolve("home"));
    }

    /**
     * {@code --vm} on libvirt (its test driver): the domain's XML is read; libvirt keeps no record of a failed start
     * and this host has no link for the kernel log, and both are listed as not read, with why; the cause stays unknown.
     */
    @Test
    void aLibvirtDomainIsDiagnosedFromWhatCanBeReadAndTheRestIsNamed() throws Exception {
        CliHarness cli = cli();
        int code = run(cli, "diagnose", "--libvirt", "test:///default", "--vm", "test", "--json");
        org.junit.jupiter.api.Assumptions.assumeFalse(code == 1 && cli.err().contains("not installed")
                && !"true".equals(System.getenv("CI")), cli.err() + " (apt-get install libvirt0)");
        assertThat(code).as(cli.err()).isEqualTo(3);
        JsonNode d = new com.fasterxml.jackson.databind.ObjectMapper().readTree(cli.out());
        assertThat(d.get("cause").asText()).isEqualTo(io.gpuforge.domain.diagnose.Diagnosis.UNKNOWN);
        List<String> names = new ArrayList<>();
        d.get("collected").forEach(c -> names.add(c.get("name").asText() + (c.has("problem") ? " (not read)" : "")));
        assertThat(names).contains("the configuration of VM test");
        assertThat(cli.err()).contains("libvirt keeps no record of a failed start")
                .contains("the kernel log of");
    }

    /**
     * {@code --vm}: GPUForge fetches the VM's own evidence from the Proxmox VE cluster (the simulator, its start
     * failing as PVE writes it) and names the cause from the task log; the JSON's {@code collected} lists the task log
     * and the configuration with what was read. A VM without a failed start says so instead of guessing.
     */
    @Test
    void aVmsFailedStartIsDiagnosedFromWhatTheClusterKept() throws Exception {
        try (io.gpuforge.demo.PveSimulator sim = new io.gpuforge.demo.PveSimulator(
                io.gpuforge.demo.SimCluster.contractLab())) {
            sim.cluster().failStarts(102, List.of(
                    "kvm: -device vfio-pci,host=0000:02:00.0,id=hostpci0.0,bus=ich9-pcie-port-1,addr=0x0.0,"
                            + "multifunction=on: vfio 0000:02:00.0: group 13 is not viable",
                    "Please ensure all devices within the iommu_group are bound to their vfio bus driver."),
                    "start failed: QEMU exited with code 1");
            io.gpuforge.hypervisor.proxmox.PveClient api = sim.tokenClient(
                    io.gpuforge.hypervisor.proxmox.PveContract.load());
            api.post("/nodes/pve-4090/qemu/102/status/start", Map.of());
            CliHarness cli = cli();
            String[] target = {"--pve", sim.url(), "--fingerprint", sim.certificateFingerprint(), "--pve-user",
                    "root@pam", "--pve-password-stdin"};
            List<String> args = new ArrayList<>(List.of("diagnose", "--vm", "102", "--json"));
            args.addAll(List.of(target));
            long until = System.currentTimeMillis() + 20_000;
            int code;
            do { // the start task ends after the simulator's task time
                code = cli.run(sim.password() + "\n", args.toArray(new String[0]));
                if (code == 0) {
                    break;
                }
                Thread.sleep(200);
            } while (System.currentTimeMillis() < until);
            assertThat(code).as(cli.err()).isZero();
            JsonNode d = new com.fasterxml.jackson.databind.ObjectMapper().readTree(cli.out());
            assertThat(d.get("cause").asText()).isEqualTo("group-not-viable");
            JsonNode collected = d.get("collected");
            assertThat(collected.get(0).get("name").asText()).startsWith("task UPID:pve-4090:")
                    .contains(":qmstart:102:");
            assertThat(collected.get(0).get("source").asText()).isEqualTo("task-log");
            assertThat(collected.get(0).get("millis").asLong()).as("how long fetching it took").isPositive();
            assertThat(collected.get(0).get("lines").asInt()).isGreaterThanOrEqualTo(4);
            assertThat(collected.get(1).get("name").asText()).isEqualTo("the configuration of VM 102");
            assertThat(collected.get(1).get("bytes_read").asLong()).isPositive();

            // a VM whose start never failed: nothing to diagnose, said in one line with what was read
            List<String> other = new ArrayList<>(List.of("diagnose", "--vm", "101"));
            other.addAll(List.of(target));
            assertThat(cli.run(sim.password() + "\n", other.toArray(new String[0]))).isEqualTo(4);
            assertThat(cli.out()).startsWith("no failed start found: VM 101 has none among the tasks of pve-4090")
                    .doesNotContain("Cause: unknown");
        }
    }

    /**
     * {@code --apply-fix}: the VM side of the fix shown as a diff of the VM's configuration, applied only when the user
     * says yes ({@code n} changes nothing), listed by {@code --fixes}, and undone by {@code --rollback-fix}.
     */
    @Test
    void aFixIsShownAppliedOnlyWithYesListedAndRolledBack() throws Exception {
        try (io.gpuforge.demo.PveSimulator sim = new io.gpuforge.demo.PveSimulator(
                io.gpuforge.demo.SimCluster.contractLab())) {
            io.gpuforge.hypervisor.proxmox.PveClient api = sim.tokenClient(
                    io.gpuforge.hypervisor.proxmox.PveContract.load());
            api.put("/nodes/pve-4090/qemu/102/config", Map.of("vga", "std"));
            sim.cluster().failStarts(102, List.of("kvm: -device vfio-pci,host=00:02.0,addr=0x02,x-igd-gms=1: PCI:"
                    + " slot 2 function 0 not available for vfio-pci, in use by VGA"), "start failed: QEMU exited with"
                    + " code 1");
            api.post("/nodes/pve-4090/qemu/102/status/start", Map.of());
            CliHarness cli = new CliHarness(home.resolve("home"), Map.of("GPUFORGE_VAULT_PASSPHRASE", "of the test"));
            assertThat(cli.run(sim.token() + "\n", new String[] {"connection", "add", "lab", "--pve", sim.url(),
                    "--fingerprint", sim.certificateFingerprint(), "--token-stdin"})).as(cli.err()).isZero();
            long until = System.currentTimeMillis() + 20_000;
            while (run(cli, "diagnose", "--connection", "lab", "--vm", "102") != 0
                    && System.currentTimeMillis() < until) {
                Thread.sleep(200); // the start task ends after the simulator's task time
            }

            assertThat(cli.run("n\n", new String[] {"diagnose", "--connection", "lab", "--vm", "102", "--apply-fix"}))
                    .isEqualTo(1);
            assertThat(cli.out()).contains("Cause: vga-slot-conflict")
                    .contains("Fix plan for vga-slot-conflict on VM 102 (pve-4090):")
                    .contains("--- a/etc/pve/qemu-server/102.conf").contains("-vga: std").contains("+vga: none")
                    .contains("Apply this fix to VM 102 and its host pve-4090? [y/N]");
            assertThat(cli.err()).contains("nothing was changed");
            assertThat(api.get("/nodes/pve-4090/qemu/102/config", Map.of()).path("vga").asText()).isEqualTo("std");
            // --json: the plan is shown before the question all the same, on stderr (stdout keeps one document)
            assertThat(cli.run("n\n", new String[] {"diagnose", "--connection", "lab", "--vm", "102", "--apply-fix",
                    "--json"})).isEqualTo(1);
            assertThat(cli.err()).contains("Fix plan for vga-slot-conflict on VM 102 (pve-4090):").contains("+vga: none")
                    .contains("nothing was changed");
            assertThat(cli.out()).contains("Apply this fix to VM 102 and its host pve-4090? [y/N]");
            assertThat(api.get("/nodes/pve-4090/qemu/102/config", Map.of()).path("vga").asText()).isEqualTo("std");

            assertThat(run(cli, "diagnose", "--connection", "lab", "--vm", "102", "--apply-fix", "--yes"))
                    .as(cli.err()).isZero();
            assertThat(cli.out()).contains("Applied fix fix-").contains("checked: VM 102 on pve-4090 reads back with"
                    + " the change").contains("not checked: Whether VM 102 starts now");
            assertThat(api.get("/nodes/pve-4090/qemu/102/config", Map.of()).path("vga").asText()).isEqualTo("none");
            String id = cli.out().lines().filter(l -> l.startsWith("Applied fix ")).findFirst().orElseThrow()
                    .split(" ")[2];

            assertThat(run(cli, "diagnose", "--connection", "lab", "--fixes")).isZero();
            assertThat(cli.out()).contains(id).contains("VM 102 on pve-4090").contains("vga-slot-conflict")
                    .contains("applied");
            assertThat(run(cli, "diagnose", "--connection", "lab", "--rollback-fix", id)).as(cli.err()).isZero();
            assertThat(cli.out()).contains("Rolled back fix " + id + ": VM 102's configuration restored.");
            assertThat(api.get("/nodes/pve-4090/qemu/102/config", Map.of()).path("vga").asText()).isEqualTo("std");
            assertThat(run(cli, "diagnose", "--connection", "lab", "--rollback-fix", id)).isEqualTo(1);
            assertThat(cli.err()).contains("rolled back already");
            assertThat(run(cli, "diagnose", "--connection", "lab", "--apply-fix")).isEqualTo(2);
        }
    }

    @Test
    void everyFixtureAsStoredGivesItsCauseWithExitZero() throws Exception {
        CliHarness cli = cli();
        for (Map.Entry<String, String> c : DiagnoseCases.fixtureCauses().entrySet()) {
            Path file = SharedFixtures.dir().resolve("diagnose").resolve(c.getKey());
            assertThat(run(cli, "diagnose", "--log", file.toString(), "--json")).as(c.getKey()).isZero();
            JsonNode json = cli.json();
            assertThat(json.get("cause").asText()).as(c.getKey()).isEqualTo(c.getValue());
            JsonNode first = json.get("causes").get(0);
            assertThat(first.get("id").asText()).isEqualTo(c.getValue());
            assertThat(first.get("evidence").get(0).get("line").asInt()).isPositive();
            assertThat(first.get("evidence").get(0).get("input").asText()).isEqualTo(file.toString());
            assertThat(first.get("fix").get("text").asText()).isNotBlank();
            assertThat(first.get("weight").get("lines").asInt()).isPositive();
            assertThat(first.get("weight").get("text").asText()).contains(" from ");
            assertThat(json.get("collected").get(0).get("bytes_read").asLong()).isEqualTo(Files.size(file));
        }
    }

    @Test
    void theTextNamesTheCauseQuotesItsLinesWithNumbersAndGivesTheFixAndPlan() throws Exception {
        CliHarness cli = cli();
        Path file = SharedFixtures.dir().resolve("diagnose/01-pve-igd-slot2-in-use-by-vga.txt");
        assertThat(run(cli, "diagnose", "--log", file.toString())).isZero();
        List<String> lines = cli.out().lines().toList();
        assertThat(lines.get(0)).isEqualTo("Cause: vga-slot-conflict: The guest's emulated VGA holds the slot the iGPU"
                + " needs");
        assertThat(lines).contains("Evidence:", "  VM (proxmox), no emulated display:", "    vga: none")
                .anyMatch(l -> l.startsWith("  " + file + ":7  kvm: -device vfio-pci,host=00:02.0"))
                .anyMatch(l -> l.startsWith("Fix: Turn the emulated display off"))
                .anyMatch(l -> l.startsWith("Read " + file + " (task-log, "));

        Path ranked = Files.writeString(home.resolve("journal.txt"), DiagnoseCases.written("ranked-reset-then-power.txt"));
        assertThat(run(cli, "diagnose", "--log", ranked.toString())).isZero();
        assertThat(cli.out()).startsWith("Cause: reset-bug:").contains("\nAlso seen: power-state:")
                .contains("\nWeight: 3 lines from the kernel log, the last written 1 s before the log's last error"
                        + " (score 5.0)\n")
                .contains("\nWeight: 2 lines from the kernel log, the last of them the log's last error (score 4.0)\n");
        assertThat(run(cli, "diagnose", "--log", ranked.toString(), "--json")).isZero();
        JsonNode weight = cli.json().get("causes").get(0).get("weight");
        assertThat(weight.get("score").asDouble()).isEqualTo(5.0);
        assertThat(weight.get("lines").asInt()).isEqualTo(3);
        assertThat(weight.get("sources").get(0).asText()).isEqualTo("kernel-log");
        assertThat(weight.get("seconds_before_failure").asLong()).isEqualTo(1);

        // the causes' words in the user's language; the JSON for programs stays English
        assertThat(run(cli, "diagnose", "--log", file.toString(), "--lang", "zh-CN")).isZero();
        assertThat(cli.out().lines().toList()).contains("Cause: vga-slot-conflict: 客户机的模拟 VGA 占用了核显所需的插槽",
                "  VM (proxmox), 不要模拟显示设备:").anyMatch(l -> l.startsWith("Fix: 关闭模拟显示设备"));
        assertThat(run(cli, "diagnose", "--log", file.toString(), "--lang", "zh-CN", "--json")).isZero();
        assertThat(cli.out()).contains("\"explanation\" : \"The Intel iGPU must sit at 00:02.0");
    }

    @Test
    void aHealthyLogIsUnknownWithExitThree() throws Exception {
        CliHarness cli = cli();
        for (String healthy : List.of("nvidia-smi/02-rtx4080super-linux-595.71.05.table.load.txt",
                "config/02-void-z790-dmesg-vfio.txt")) {
            Path file = SharedFixtures.dir().resolve(healthy);
            assertThat(run(cli, "diagnose", "--log", file.toString())).as(healthy).isEqualTo(3);
            assertThat(cli.out()).startsWith("Cause: unknown (no known cause of a failed GPU VM start matched");
            assertThat(run(cli, "diagnose", "--log", file.toString(), "--json")).isEqualTo(3);
            assertThat(cli.json().get("cause").asText()).isEqualTo("unknown");
            assertThat(cli.json().get("causes")).isEmpty();
        }
        assertThat(cli.run(DiagnoseCases.written("unknown-qemu-exit-only.txt"), new String[] {"diagnose", "--log", "-"})).isEqualTo(3);
        assertThat(cli.out()).contains("Lines that looked relevant:\n  stdin:2  TASK ERROR: start failed: QEMU exited"
                + " with code 1");
    }

    @Test
    void badInputGetsOneClearLineOrUnknownWithTheReason() throws Exception {
        CliHarness cli = cli();
        assertThat(run(cli, "diagnose", "--log", home.toString())).isEqualTo(1);
        assertThat(cli.err()).isEqualTo("gpuforge diagnose: " + home + " is a directory: give a log file\n");
        assertThat(cli.out()).isEmpty();

        Path binary = Files.write(home.resolve("initrd.img"), new byte[] {0x1f, (byte) 0x8b, 8, 0, 0, 0, 0, 0, 0, 3});
        assertThat(run(cli, "diagnose", "--log", binary.toString())).isEqualTo(1);
        assertThat(cli.err()).startsWith("gpuforge diagnose: " + binary + " is not a text log (binary data")
                .hasLineCount(1);

        Path empty = Files.createFile(home.resolve("empty.log"));
        assertThat(run(cli, "diagnose", "--log", empty.toString())).isEqualTo(3);
        assertThat(cli.out()).startsWith("Cause: unknown (the log is empty)");

        assertThat(run(cli, "diagnose")).isEqualTo(2);
        assertThat(cli.err()).contains("give the logs (--log FILE) or the VM (--vm ID with --connection NAME)");
    }

    @Test
    void aFiftyMegabyteLogIsReadWithinItsLimitAndTheRestNamed() throws Exception {
        Path big = home.resolve("dmesg-50m.txt");
        try (OutputStream out = Files.newOutputStream(big)) {
            byte[] line = "[ 1234.567890] usb 3-2: new SuperSpeed USB device number 4 using xhci_hcd\n"
                    .getBytes(StandardCharsets.UTF_8);
            for (long n = 0; n < 50L * 1024 * 1024; n += line.length) {
                out.write(line);
            }
            out.write(("[ 1300.000001] vfio-pci 0000:01:00.0: Unable to change power state from D3cold to D0,"
                    + " device inaccessible\n").getBytes(StandardCharsets.UTF_8));
        }
        CliHarness cli = cli();
        assertThat(run(cli, "diagnose", "--log", big.toString())).isZero();
        assertThat(cli.out()).startsWith("Cause: power-state:")
                .contains("(kernel-log, ").contains("8.0 MiB; 42.0 MiB not read, over the 8 MiB limit)");
    }

    @Test
    void severalLogsAreReadTogetherAndOneUnreadableIsNamedBesideTheResult() throws Exception {
        CliHarness cli = cli();
        Path task = Files.writeString(home.resolve("task.log"), DiagnoseCases.written("vfio-device-busy.txt"));
        List<String> args = new ArrayList<>(List.of("diagnose", "--log", task.toString(), "--log",
                home.resolve("missing.log").toString(), "--log", "-", "--json"));
        assertThat(cli.run("[ 9.1] vfio-pci 0000:65:00.0: BAR 0: can't reserve [mem 0xf0000000-0xf0ffffff]\n",
                args.toArray(String[]::new))).isZero();
        JsonNode json = cli.json();
        assertThat(json.get("cause").asText()).isEqualTo("vfio-device-busy");
        assertThat(json.get("causes").get(1).get("id").asText()).isEqualTo("bar-reserved-by-framebuffer");
        assertThat(json.get("causes").get(1).get("evidence").get(0).get("input").asText()).isEqualTo("stdin");
        assertThat(json.get("collected").get(1).get("problem").asText()).endsWith("missing.log: no such file");
        assertThat(cli.err()).endsWith("missing.log: no such file\n");
    }
}
