package io.gpuforge.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gpuforge.app.AppContext;
import io.gpuforge.app.AppPaths;
import io.gpuforge.app.settings.LanguageChoice;
import io.gpuforge.app.settings.ThemeChoice;
import io.gpuforge.cli.common.CliOutput;
import io.gpuforge.testing.TestContexts;
import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code gpuforge passthrough} on the Demo lab as a new user runs it: whatever would refuse later refuses before the
 * first change (a running VM, a node with running guests to reboot, a VM that has a GPU already), and the plan printed,
 * with its digest, is exactly the plan applied.
 */
class PassthroughConfirmCliTest {

    @TempDir
    Path home;
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    @BeforeEach
    void demo() throws Exception {
        try (AppContext ctx = TestContexts.create(home, home.resolve("no-sysroot"), ThemeChoice.LIGHT,
                LanguageChoice.ENGLISH)) {
            ctx.connections().addDemo("Demo lab");
        }
    }

    private int run(String stdin, String... args) {
        out.getBuffer().setLength(0);
        err.getBuffer().setLength(0);
        return GpuForgeCli.run(args, AppPaths.underHome(home), new CliOutput(new PrintWriter(out), new PrintWriter(err)),
                new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)));
    }

    private JsonNode json() throws Exception {
        return new ObjectMapper().readTree(out.toString());
    }

    private static List<String> texts(JsonNode array) {
        List<String> l = new ArrayList<>();
        array.forEach(n -> l.add(n.asText()));
        return l;
    }

    @Test
    void aRunningVmOnANodeWithRunningGuestsIsRefusedBeforeTheHostIsTouched() throws Exception {
        assertThat(run("", "passthrough", "--connection", "Demo lab", "--device", "0000:02:00.0", "--vm", "101",
                "--node", "pve-4090", "--yes", "--json")).isEqualTo(1);
        JsonNode r = json();
        assertThat(r.get("status").asText()).isEqualTo("stopped");
        assertThat(r.get("step").asText()).isEqualTo("check");
        assertThat(r.get("error").asText()).contains("nothing was changed")
                .contains("VM 101 is running: shut it down")
                .contains("the plan reboots pve-4090 (Demo lab), and pve-4090 runs train-01 (VM 101)")
                .contains("VM 101 (train-01) has a GPU already: 0000:01:00.0").contains("--add-gpu");
        assertThat(err.toString()).contains("== check:").doesNotContain("== apply:").doesNotContain("== reboot:")
                .doesNotContain("backing up").doesNotContain("running update-initramfs");
    }

    @Test
    void aVmWithAGpuIsNamedAndGetsASecondOnlyWhenAskedExactlyAsPrinted() throws Exception {
        // render-02 has hostpci0: mapping=render-3090 (0000:01:00.0): never given a second GPU silently
        assertThat(run("y\n", "passthrough", "--connection", "Demo lab", "--device", "0000:02:00.0", "--vm",
                "render-02")).isEqualTo(1);
        assertThat(err.toString()).contains("stopped at check").contains("VM 122 (render-02) has a GPU already:"
                + " 0000:01:00.0").contains("--add-gpu").doesNotContain("== apply:");
        assertThat(out.toString()).as("refused before any plan is offered").doesNotContain("[y/N]");

        assertThat(run("", "passthrough", "--connection", "Demo lab", "--device", "0000:02:00.0", "--vm", "render-02",
                "--add-gpu", "--dry-run", "--json")).as(err.toString()).isZero();
        JsonNode plan = json();
        assertThat(plan.get("status").asText()).isEqualTo("planned");
        String digest = plan.get("digest").asText();
        assertThat(digest).matches("[0-9a-f]{16}");
        List<String> vmChanges = texts(plan.get("vm_changes"));
        assertThat(vmChanges).as("the hypervisor's own plan: the next free slot and the mapping it makes")
                .contains("hostpci1: mapping=gpu-pve-3090-02-00,pcie=1")
                .anyMatch(c -> c.startsWith("PCI resource mapping gpu-pve-3090-02-00: node=pve-3090,path=0000:02:00"));
        assertThat(texts(plan.get("keeps"))).singleElement().asString().startsWith("0000:01:00.0");
        assertThat(plan.get("reboot").asBoolean()).isTrue();
        assertThat(plan.get("host_plan").get("commands").toString()).contains("update-initramfs -u -k all");

        assertThat(run("", "passthrough", "--connection", "Demo lab", "--device", "0000:02:00.0", "--vm", "render-02",
                "--add-gpu", "--digest", "0123456789abcdef")).isEqualTo(1);
        assertThat(err.toString()).contains("the plan's digest is now " + digest).doesNotContain("== apply:");

        assertThat(run("", "passthrough", "--connection", "Demo lab", "--device", "0000:02:00.0", "--vm", "render-02",
                "--add-gpu", "--digest", digest, "--json")).as(err.toString()).isZero();
        JsonNode done = json();
        assertThat(done.get("status").asText()).isEqualTo("attached");
        assertThat(done.get("digest").asText()).isEqualTo(digest);
        assertThat(texts(done.get("changes"))).as("what was printed is what was done").isEqualTo(vmChanges);
        assertThat(done.get("rebooted").asBoolean()).isTrue();
    }

    @Test
    void withoutYesThePlanIsShownWithItsDigestAndANoChangesNothing() {
        assertThat(run("n\n", "passthrough", "--connection", "Demo lab", "--device", "0000:02:00.0", "--vm", "render-02",
                "--add-gpu")).isEqualTo(1);
        assertThat(out.toString()).contains("Plan digest: ").contains("hostpci1: mapping=gpu-pve-3090-02-00,pcie=1")
                .contains("keeps its GPU 0000:01:00.0").contains("Then pve-3090 reboots")
                .contains("reboot pve-3090 and give the GPU to VM 122? [y/N]");
        assertThat(err.toString()).contains("Not confirmed: nothing was changed").doesNotContain("== apply:");
    }

    @Test
    void aBlockedCardAndAClusterWithoutCredentialsStopWithTheReason() {
        assertThat(run("", "passthrough", "--connection", "Demo lab", "--vm", "train-01", "--device", "0000:07:00.0",
                "--yes")).isEqualTo(1);
        assertThat(err.toString()).contains("stopped at check").contains("0000:07:00.0");
        assertThat(run("", "passthrough", "--pve", "https://pve.example:8006", "--vm", "101", "--device", "0000:02:00.0"))
                .isEqualTo(2);
        assertThat(err.toString()).contains("no saved Proxmox VE connection at https://pve.example:8006")
                .contains("GPUFORGE_PVE_TOKEN", "--token-stdin");
    }

    @Test
    void aVmsGpuIsReplacedInOneChangeWhenAskedAndThePlanSaysSo() throws Exception {
        assertThat(run("", "passthrough", "--connection", "Demo lab", "--device", "0000:02:00.0", "--vm", "render-02",
                "--add-gpu", "--replace-gpu", "--dry-run")).isEqualTo(2);
        assertThat(err.toString()).contains("give one");

        assertThat(run("", "passthrough", "--connection", "Demo lab", "--device", "0000:02:00.0", "--vm", "render-02",
                "--replace-gpu", "--dry-run", "--json")).as(err.toString()).isZero();
        JsonNode plan = json();
        List<String> vmChanges = texts(plan.get("vm_changes"));
        assertThat(vmChanges).as("the card it had leaves, the new one takes its slot")
                .contains("hostpci0: mapping=render-3090,pcie=1 (removed)", "hostpci0: mapping=gpu-pve-3090-02-00,pcie=1");
        assertThat(plan.get("keeps")).isEmpty();

        assertThat(run("", "passthrough", "--connection", "Demo lab", "--device", "0000:02:00.0", "--vm", "render-02",
                "--replace-gpu", "--digest", plan.get("digest").asText(), "--json")).as(err.toString()).isZero();
        assertThat(texts(json().get("changes"))).isEqualTo(vmChanges);
        assertThat(run("", "vm", "config", "render-02", "--connection", "Demo lab")).isZero();
        assertThat(out.toString()).as("the next command finds it so: the Demo lab remembers")
                .contains("hostpci0: mapping=gpu-pve-3090-02-00,pcie=1").doesNotContain("render-3090");
    }
}
