package io.gpuforge.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gpuforge.app.AppContext;
import io.gpuforge.app.AppPaths;
import io.gpuforge.app.settings.LanguageChoice;
import io.gpuforge.app.settings.ThemeChoice;
import io.gpuforge.demo.PveSimulator;
import io.gpuforge.demo.SimCluster;
import io.gpuforge.hypervisor.proxmox.PveContract;
import io.gpuforge.testing.TestContexts;
import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import io.gpuforge.cli.common.CliOutput;

/**
 * {@code gpuforge attach}, {@code detach} and {@code passthrough} against the Proxmox simulator: through the PCI
 * resource mapping (reused when one names the card, made otherwise), with a password login and with an API token from
 * the environment ({@code PassthroughConfirmCliTest} has the whole chain on the Demo lab).
 */
class AttachCliTest {

    @TempDir
    Path home;
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String stdin, String... args) {
        out.getBuffer().setLength(0);
        err.getBuffer().setLength(0);
        return GpuForgeCli.run(args, AppPaths.underHome(home), new CliOutput(new PrintWriter(out), new PrintWriter(err)),
                new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)));
    }

    private static String[] pve(PveSimulator sim, String... rest) {
        List<String> a = new ArrayList<>(List.of(rest));
        a.addAll(List.of("--pve", sim.url(), "--fingerprint", sim.certificateFingerprint(), "--pve-user", "root@pam",
                "--pve-password-stdin"));
        return a.toArray(new String[0]);
    }

    private JsonNode json() throws Exception {
        return new ObjectMapper().readTree(out.toString());
    }

    @Test
    void attachReusesTheMappingThatNamesTheCardAndDetachTakesItBack() throws Exception {
        try (PveSimulator sim = new PveSimulator(SimCluster.contractLab())) {
            String password = sim.password() + "\n";
            assertThat(run(password, pve(sim, "attach", "--node", "pve-4090", "--vm", "dev-01", "--device", "0000:02:00.1",
                    "--json"))).as(err.toString()).isZero();
            JsonNode a = json();
            assertThat(a.get("vm").asText()).isEqualTo("102");
            List<String> changes = new ArrayList<>();
            a.get("changes").forEach(c -> changes.add(c.asText()));
            assertThat(changes).contains("hostpci0: mapping=gpu-4090-b,pcie=1", "machine: q35", "bios: ovmf", "balloon: 0")
                    .anyMatch(c -> c.startsWith("efidisk0: local-zfs:1,efitype=4m,pre-enrolled-keys=0"))
                    .noneMatch(c -> c.startsWith("PCI resource mapping"));
            assertThat(a.get("host_devices").toString()).contains("0000:02:00.0", "0000:02:00.1");

            assertThat(run(password, pve(sim, "attach", "--node", "pve-4090", "--vm", "102", "--device", "0000:02:00.0")))
                    .isEqualTo(1);
            assertThat(err.toString()).contains("has 0000:02:00 already");

            assertThat(run(password, pve(sim, "detach", "--node", "pve-4090", "--vm", "102", "--device", "0000:02:00.0")))
                    .as(err.toString()).isZero();
            assertThat(out.toString()).contains("detached").contains("hostpci0: mapping=gpu-4090-b,pcie=1 (removed)");
        }
    }

    @Test
    void attachWithAnApiTokenMakesTheMappingWhenNoneNamesTheCard() throws Exception {
        try (PveSimulator sim = new PveSimulator(SimCluster.contractLab())) {
            sim.tokenClient(PveContract.load()).delete("/cluster/mapping/pci/gpu-4090-b", Map.of());
            // the token comes from the environment, as a script gives it: a gpuforge process of its own
            ProcessBuilder pb = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-D" + AppPaths.HOME_PROPERTY + "=" + home, "-cp", System.getProperty("java.class.path"),
                    "io.gpuforge.boot.Launcher", "attach", "--pve", sim.url(), "--fingerprint", sim.certificateFingerprint(),
                    "--node", "pve-4090", "--vm", "102", "--device", "0000:02:00.0", "--json");
            pb.environment().put("GPUFORGE_PVE_TOKEN", sim.token());
            pb.redirectError(ProcessBuilder.Redirect.DISCARD);
            Process p = pb.start();
            String stdout = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(p.exitValue()).as(stdout).isZero();
            List<String> changes = new ArrayList<>();
            new ObjectMapper().readTree(stdout).get("changes").forEach(c -> changes.add(c.asText()));
            assertThat(changes).anyMatch(c -> c.startsWith("PCI resource mapping gpu-pve-4090-02-00: node=pve-4090,"
                    + "path=0000:02:00,id=10de:2684,subsystem-id=1458:40bf,iommugroup=13") && c.endsWith("(new)"))
                    .contains("hostpci0: mapping=gpu-pve-4090-02-00,pcie=1");
        }
    }
}
