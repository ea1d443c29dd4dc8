package io.gpuforge.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gpuforge.app.AppContext;
import io.gpuforge.app.AppPaths;
import io.gpuforge.app.settings.LanguageChoice;
import io.gpuforge.app.settings.ThemeChoice;
import io.gpuforge.testing.TestContexts;
import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import io.gpuforge.cli.common.CliOutput;

/** gpuforge vm templates|create|list|start|stop|delete, in process, on the Demo lab (a simulated Proxmox VE). */
class VmCliTest {

    @TempDir
    Path home;

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    @BeforeEach
    void demoLab() throws Exception {
        try (AppContext ctx = TestContexts.create(home, home.resolve("sysroot"), ThemeChoice.LIGHT, LanguageChoice.ENGLISH)) {
            ctx.connections().addDemo("Demo lab");
        }
    }

    private int run(String stdin, String... args) {
        out.getBuffer().setLength(0);
        err.getBuffer().setLength(0);
        return GpuForgeCli.run(args, AppPaths.underHome(home), new CliOutput(new PrintWriter(out), new PrintWriter(err)),
                new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void templatesAreListedExportedAndImported() throws Exception {
        assertThat(run("", "vm", "templates", "--json")).as(err.toString()).isZero();
        JsonNode list = new ObjectMapper().readTree(out.toString()).get("templates");
        assertThat(list).hasSize(5);
        assertThat(list.get(2).get("name").asText()).isEqualTo("Windows 11 GPU desktop");
        assertThat(list.get(2).get("tpm").asBoolean()).isTrue();
        Path file = home.resolve("t.json");
        assertThat(run("", "vm", "templates", "--export", file.toString(), "--template", "slurm-gpu-worker")).isZero();
        assertThat(run("", "vm", "templates", "--import", file.toString())).as(err.toString()).isZero();
        assertThat(out.toString()).contains("imported slurm-gpu-worker-2: Slurm GPU worker (imported)");
        Files.writeString(file, "{\"format\": \"gpuforge-vm-templates\", \"version\": 7, \"templates\": []}");
        assertThat(run("", "vm", "templates", "--import", file.toString())).isEqualTo(1);
        assertThat(err.toString()).contains("version: 7 was written by a newer GPUForge");
    }

    @Test
    void aVmIsCreatedFromATemplateOnTheDemoLabAndItsConfigurationPrinted() throws Exception {
        Path key = home.resolve("id.pub");
        Files.writeString(key, "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGq8T9mJq3fNvH5c7kK3bA ada@lab\n");
        int code = run("pw-from-stdin\n", "vm", "create", "--template", "Ubuntu 24.04 CUDA workstation", "--connection",
                "Demo lab", "--node", "pve-4090", "--name", "cuda-01", "--memory", "16384", "--disk", "64",
                "--ssh-key", key.toString(), "--user", "ada", "--password-stdin", "--gpu", "0000:02:00.0", "--json");
        assertThat(code).as(err.toString()).isZero();
        JsonNode r = new ObjectMapper().readTree(out.toString());
        assertThat(r.get("ok").asBoolean()).isTrue();
        JsonNode cfg = r.get("config");
        assertThat(cfg.get("name").asText()).isEqualTo("cuda-01");
        assertThat(cfg.get("memory").asText()).isEqualTo("16384");
        assertThat(cfg.get("cpu").asText()).isEqualTo("host");
        assertThat(cfg.get("machine").asText()).isEqualTo("q35");
        assertThat(cfg.get("bios").asText()).isEqualTo("ovmf");
        assertThat(cfg.get("scsi0").asText()).endsWith("size=64G").contains("discard=on");
        assertThat(cfg.get("ciuser").asText()).isEqualTo("ada");
        assertThat(cfg.get("cipassword").asText()).isEqualTo("********");
        assertThat(cfg.get("hostpci0").asText()).startsWith("mapping=");
        assertThat(r.get("notes").toString()).contains("the template's user-data was written over the SSH host link")
                .contains("/var/lib/vz/snippets/gpuforge-");
        assertThat(cfg.get("cicustom").asText())
                .matches("user=local:snippets/gpuforge-[0-9]+-cuda-01-user\\.yaml,meta=local:snippets/gpuforge-[0-9]+-cuda-01-meta\\.yaml");
        assertThat(r.get("log").toString()).contains("[1/3] download").contains("[3/3] grow scsi0");
        assertThat(r.get("userData").get("way").asText()).as("the Demo lab's node has its host").isEqualTo("snippet");
    }

    @Test
    void theTemplatesSetupRunsInAVmOverItsGuestAgent() throws Exception {
        Path key = home.resolve("id.pub");
        Files.writeString(key, "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGq8T9mJq3fNvH5c7kK3bA ada@lab\n");
        int code = run("pw-from-stdin\n", "vm", "provision", "train-01", "--template", "ubuntu-cuda", "--connection",
                "Demo lab", "--user", "ada", "--ssh-key", key.toString(), "--password-stdin", "--json");
        assertThat(code).as(err.toString() + out).isZero();
        JsonNode r = new ObjectMapper().readTree(out.toString());
        assertThat(r.get("ok").asBoolean()).isTrue();
        assertThat(r.get("way").asText()).isEqualTo("guest-agent");
        assertThat(r.get("vm").get("id").asText()).isEqualTo("101");
        assertThat(r.get("file").asText()).isEqualTo("/var/lib/gpuforge/user-data.yaml");
        assertThat(r.get("modules").toString()).isEqualTo("[\"write_files\",\"set_hostname\",\"users_groups\","
                + "\"set_passwords\",\"runcmd\",\"package_update_upgrade_install\",\"scripts_user\","
                + "\"power_state_change\"]");
        assertThat(r.get("log").toString()).contains("over the guest agent").doesNotContain("pw-from-stdin");

        code = run("", "vm", "provision", "dev-99", "--template", "ubuntu-cuda", "--connection", "Demo lab",
                "--ssh-key", key.toString());
        assertThat(code).isEqualTo(2);
        assertThat(err.toString()).contains("no VM 'dev-99' on Demo lab");
        code = run("", "vm", "provision", "train-01", "--template", "windows11-gpu", "--connection", "Demo lab");
        assertThat(code).isEqualTo(1);
        assertThat(err.toString()).contains("has no cloud-init user-data");

        // a key file that is not one (a disk image picked by mistake) is refused by its size, not read whole
        Path wrong = home.resolve("disk.img");
        try (java.io.RandomAccessFile f = new java.io.RandomAccessFile(wrong.toFile(), "rw")) {
            f.setLength(3L << 20);
        }
        code = run("", "vm", "provision", "train-01", "--template", "ubuntu-cuda", "--connection", "Demo lab",
                "--ssh-key", wrong.toString());
        assertThat(code).isEqualTo(1);
        assertThat(err.toString()).contains(wrong.toString()).contains("more than 1 MiB");
    }

    @Test
    void aVmIsClonedFromAProxmoxTemplateAndConfiguredWithTheGivenResourcesAndCloudInit() throws Exception {
        Path key = home.resolve("id.pub");
        Files.writeString(key, "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGq8T9mJq3fNvH5c7kK3bA ada@lab\n");
        int code = run("", "vm", "create", "--clone", "9000", "--linked", "--connection", "Demo lab", "--node",
                "pve-3090", "--name", "linked-01", "--cores", "6", "--memory", "8192", "--ssh-key", key.toString(),
                "--user", "ada", "--json");
        assertThat(code).as(err.toString()).isZero();
        JsonNode r = new ObjectMapper().readTree(out.toString());
        assertThat(r.get("ok").asBoolean()).isTrue();
        JsonNode cfg = r.get("config");
        assertThat(cfg.get("name").asText()).isEqualTo("linked-01");
        assertThat(cfg.get("cores").asText()).isEqualTo("6");
        assertThat(cfg.get("memory").asText()).isEqualTo("8192");
        assertThat(cfg.get("ciuser").asText()).isEqualTo("ada");
        assertThat(cfg.get("sshkeys").asText()).contains("ssh-ed25519");
        assertThat(cfg.get("scsi0").asText()).as("a linked clone stays on the template's storage").startsWith("local-zfs:");
        assertThat(cfg.has("template")).isFalse();

        code = run("", "vm", "create", "--clone", "9000", "--linked", "--storage", "local", "--connection", "Demo lab",
                "--node", "pve-3090", "--name", "linked-02", "--ssh-key", key.toString(), "--json");
        assertThat(code).isEqualTo(2);
        assertThat(err.toString()).contains("--storage: A linked clone stays on the template's storage local-zfs");
    }

    @Test
    void aCloneSmallerThanItsTemplatesDiskIsRefusedAndALargerOneIsToldItKeepsTheTemplatesSize() throws Exception {
        Path key = home.resolve("id.pub");
        Files.writeString(key, "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGq8T9mJq3fNvH5c7kK3bA ada@lab\n");
        int code = run("", "vm", "create", "--clone", "9000", "--connection", "Demo lab", "--node", "pve-3090",
                "--name", "small-01", "--disk", "8", "--ssh-key", key.toString(), "--json");
        assertThat(code).isEqualTo(2);
        assertThat(err.toString()).contains("--disk: A clone's disk cannot be smaller than its template's (32 GiB)");
        code = run("", "vm", "create", "--clone", "9000", "--connection", "Demo lab", "--node", "pve-3090",
                "--name", "big-01", "--disk", "64", "--ssh-key", key.toString(), "--dry-run");
        assertThat(code).as(err.toString()).isZero();
        assertThat(err.toString()).contains("warning: The clone keeps its template's 32 GiB disk");
    }

    @Test
    void aVmThatDoesNotFitIsRefusedBeforeAnythingIsSent() {
        int code = run("", "vm", "create", "--template", "inference-node", "--connection", "Demo lab", "--node",
                "pve-3090", "--memory", "200000", "--json");
        assertThat(code).isEqualTo(2);
        assertThat(err.toString()).contains("--memory: Not enough memory on pve-3090: 195.3 GiB asked, 96.0 GiB free")
                .contains("--ssh-key/--password-stdin: Give a password or an SSH public key");
    }

    @Test
    void vmsAreListedStoppedAndDeleted() throws Exception {
        assertThat(run("", "vm", "list", "--connection", "Demo lab", "--json")).as(err.toString()).isZero();
        assertThat(out.toString()).contains("\"name\" : \"train-01\"").contains("\"state\" : \"running\"");
        assertThat(run("", "vm", "stop", "train-01", "--connection", "Demo lab")).as(err.toString()).isZero();
        assertThat(out.toString()).contains("stop pve-4090/101: OK");
        assertThat(run("", "vm", "delete", "9000", "--connection", "Demo lab")).isZero();
        assertThat(run("", "vm", "start", "nope", "--connection", "Demo lab")).isEqualTo(2);
        assertThat(err.toString()).contains("no VM 'nope' on Demo lab");
    }
}
