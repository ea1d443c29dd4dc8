package io.gpuforge.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gpuforge.app.AppPaths;
import io.gpuforge.demo.PveSimulator;
import io.gpuforge.demo.SimCluster;
import io.gpuforge.testing.Sysroots;
import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import io.gpuforge.cli.common.CliOutput;

class CliTest {

    @TempDir
    Path home;

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        return GpuForgeCli.run(args, AppPaths.underHome(home), new CliOutput(new PrintWriter(out), new PrintWriter(err)));
    }

    @Test
    void helpListsEverySubcommand() {
        assertThat(run("--help")).isZero();
        assertThat(out.toString()).contains("Usage: gpuforge").contains("inventory", "iommu", "check", "plan", "apply",
                "rollback", "verify", "vm", "gpu");
    }

    @Test
    void versionNamesTheProgram() {
        assertThat(run("--version")).isZero();
        assertThat(out.toString()).startsWith("gpuforge ");
    }

    @Test
    void inventoryJsonOfASysroot(@TempDir Path root) throws Exception {
        Sysroots.intelHost(root, 7);
        assertThat(run("inventory", "--sysroot", root.toString(), "--json")).isZero();
        JsonNode json = new ObjectMapper().readTree(out.toString());
        assertThat(json.get("source").asText()).startsWith("sysroot:");
        JsonNode node = json.get("nodes").get(0);
        assertThat(node.get("name").asText()).isEqualTo("pve-lab1");
        assertThat(node.get("kernel").asText()).isEqualTo("6.8.12-4-pve");
        assertThat(node.get("iommu").asText()).isEqualTo("enabled");
        assertThat(node.get("iommu_groups").asInt()).isEqualTo(7);
        assertThat(node.get("cpu_vendor").asText()).isEqualTo("Intel");
    }

    @Test
    void inventoryTextOfTheLocalComputer() {
        assertThat(run("inventory")).isZero();
        assertThat(out.toString()).startsWith("This computer: ").contains("Kernel:").contains("IOMMU:");
    }

    @Test
    void vmIsInThisBuildAndListsItsCommands() {
        assertThat(run("vm")).isZero();
        assertThat(out.toString()).contains("templates").contains("create").contains("shutdown").contains("delete");
    }

    @Test
    void proxmoxInventoryWithPasswordFromStdin() throws Exception {
        try (PveSimulator sim = new PveSimulator(SimCluster.demo())) {
            int code = GpuForgeCli.run(new String[] {"inventory", "--pve", sim.url(), "--fingerprint",
                sim.certificateFingerprint(), "--pve-user", "root@pam", "--pve-password-stdin", "--node", "pve-4090", "--json"},
                    AppPaths.underHome(home), new CliOutput(new PrintWriter(out), new PrintWriter(err)),
                    new ByteArrayInputStream((sim.password() + "\n").getBytes()));
            assertThat(code).as(err.toString()).isZero();
            JsonNode doc = new ObjectMapper().readTree(out.toString());
            assertThat(doc.get("nodes")).hasSize(1);
            assertThat(doc.get("vms")).hasSize(1);
            assertThat(doc.get("vms").get(0).get("name").asText()).isEqualTo("train-01");
            assertThat(doc.get("gpus").get(0).get("path").asText()).isEqualTo("0000:01:00");
            out.getBuffer().setLength(0);
            code = GpuForgeCli.run(new String[] {"iommu", "--pve", sim.url(), "--fingerprint", sim.certificateFingerprint(),
                "--pve-user", "root@pam", "--pve-password-stdin", "--node", "pve-3090", "--json"}, AppPaths.underHome(home),
                    new CliOutput(new PrintWriter(out), new PrintWriter(err)),
                    new ByteArrayInputStream((sim.password() + "\n").getBytes()));
            assertThat(code).as(err.toString()).isZero();
            JsonNode iommu = new ObjectMapper().readTree(out.toString());
            IommuCommandTest.assertContract(iommu);
            assertThat(iommu.get("gpus")).hasSize(4);
            assertThat(iommu.get("gpus").get(3).get("isolation").asText()).isEqualTo("shared");
        }
    }

    @Test
    void proxmoxInventoryNeedsAToken() {
        Assumptions.assumeTrue(System.getenv("GPUFORGE_PVE_TOKEN") == null, "token set in env");
        assertThat(run("inventory", "--pve", "https://pve:8006")).isEqualTo(2);
        assertThat(err.toString()).contains("GPUFORGE_PVE_TOKEN");
        assertThat(out.toString()).isEmpty();
    }

    @Test
    void usageErrorsExitWith2() {
        assertThat(run("frobnicate")).isEqualTo(2);
        assertThat(run("inventory", "--local", "--sysroot", "/x")).isEqualTo(2);
        assertThat(err.toString()).contains("mutually exclusive");
    }
}
