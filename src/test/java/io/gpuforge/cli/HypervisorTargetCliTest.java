package io.gpuforge.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gpuforge.app.AppPaths;
import io.gpuforge.demo.PveSimulator;
import io.gpuforge.demo.SimCluster;
import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import io.gpuforge.cli.common.CliOutput;

/**
 * The same spelling of a hypervisor in every command, from a bare shell: a cluster named on the spot with
 * {@code --pve URL --fingerprint FP --token-stdin} lists, creates and stops VMs as {@code inventory} reads it, and the
 * Demo lab by its saved name is inventoried; a wrong name, URL or token is one line naming it.
 */
class HypervisorTargetCliTest {

    @TempDir
    Path home;
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();
    private PveSimulator sim;

    @BeforeEach
    void start() throws Exception {
        sim = new PveSimulator(SimCluster.demo());
    }

    @AfterEach
    void stop() {
        sim.close();
    }

    private int run(String stdin, String... args) {
        out.getBuffer().setLength(0);
        err.getBuffer().setLength(0);
        return GpuForgeCli.run(args, AppPaths.underHome(home), new CliOutput(new PrintWriter(out), new PrintWriter(err)),
                new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)));
    }

    private String[] onTheSpot(String... command) {
        String[] args = new String[command.length + 5];
        System.arraycopy(command, 0, args, 0, command.length);
        System.arraycopy(new String[] {"--pve", sim.url(), "--fingerprint", sim.certificateFingerprint(),
                "--token-stdin"}, 0, args, command.length, 5);
        return args;
    }

    @Test
    void aClusterNamedOnTheSpotWithATokenOnStdinListsCreatesAndStopsVms() throws Exception {
        String token = sim.token() + "\n";
        assertThat(run(token, onTheSpot("vm", "list", "--json"))).as(err.toString()).isZero();
        JsonNode vms = new ObjectMapper().readTree(out.toString()).get("vms");
        assertThat(vms.size()).isPositive();
        assertThat(out.toString()).contains("\"train-01\"");

        // the token is stdin's first line, the VM's password its second
        assertThat(run(token + "a VM password\n", onTheSpot("vm", "create", "--node", "pve-3090", "--template",
                "ubuntu-cuda", "--name", "spot-01", "--password-stdin", "--start", "--json"))).as(err.toString() + out)
                .isZero();
        String id = new ObjectMapper().readTree(out.toString()).get("vm").get("id").asText();
        assertThat(state(token, id)).isEqualTo("running");

        assertThat(run(token, onTheSpot("vm", "stop", "spot-01", "--node", "pve-3090"))).as(err.toString()).isZero();
        assertThat(state(token, id)).isEqualTo("stopped");

        assertThat(run(token, onTheSpot("inventory", "--node", "pve-3090", "--json"))).as(err.toString()).isZero();
        assertThat(out.toString()).contains("spot-01");
    }

    /** The VM's state as {@code vm list --json} on the spot says it. */
    private String state(String token, String id) throws Exception {
        assertThat(run(token, onTheSpot("vm", "list", "--json"))).as(err.toString()).isZero();
        for (JsonNode v : new ObjectMapper().readTree(out.toString()).get("vms")) {
            if (v.get("id").asText().equals(id)) {
                return v.get("state").asText();
            }
        }
        throw new AssertionError("VM " + id + " is not listed: " + out);
    }

    @Test
    void theTokenMayComeFromTheEnvironmentAsInventoryAlwaysTookIt() {
        out.getBuffer().setLength(0);
        err.getBuffer().setLength(0);
        int code = GpuForgeCli.run(new String[] {"vm", "list", "--pve", sim.url(), "--fingerprint",
                sim.certificateFingerprint(), "--json"}, AppPaths.underHome(home), new CliOutput(new PrintWriter(out),
                new PrintWriter(err)), new ByteArrayInputStream(new byte[0]), java.util.Map.of("GPUFORGE_PVE_TOKEN",
                sim.token()));
        assertThat(code).as(err.toString()).isZero();
        assertThat(out.toString()).contains("\"train-01\"");
    }

    @Test
    void theDemoLabIsInventoriedByItsSavedName() {
        assertThat(run("", "connection", "add", "Demo lab", "--demo")).isZero();
        assertThat(run("", "inventory", "--connection", "Demo lab", "--json")).as(err.toString()).isZero();
        assertThat(out.toString()).contains("train-01");
    }

    @Test
    void quietLeavesTheResultAndItsNotes() {
        assertThat(run("", "connection", "add", "Demo lab", "--demo")).isZero();
        assertThat(run("pw\n", "vm", "create", "--connection", "Demo lab", "--node", "pve-3090", "--template",
                "ubuntu-cuda", "--name", "loud", "--password-stdin")).as(err.toString()).isZero();
        assertThat(out.toString()).contains("TASK OK", "created loud");
        assertThat(run("pw\n", "vm", "create", "--connection", "Demo lab", "--node", "pve-3090", "--template",
                "ubuntu-cuda", "--name", "hush", "--password-stdin", "--quiet")).as(err.toString()).isZero();
        assertThat(out.toString()).contains("created hush", "note: Cloud-init").doesNotContain("TASK OK")
                .doesNotContain("progress");
    }

    @Test
    void aWrongNameUrlOrTokenIsOneLineNamingIt() {
        assertThat(run("", "vm", "list", "--connection", "No such lab")).isEqualTo(2);
        assertThat(err.toString().strip()).isEqualTo("gpuforge vm list: no saved connection named 'No such lab'"
                + " (gpuforge connection list)");
        assertThat(run("", "inventory", "--pve", "pve1:8006", "--token-stdin")).isEqualTo(2);
        assertThat(err.toString().strip()).isEqualTo("gpuforge inventory: --pve needs the cluster's https URL, such as"
                + " https://pve1:8006, not 'pve1:8006'");
        assertThat(run("not a token\n", onTheSpot("vm", "list"))).isEqualTo(2);
        assertThat(err.toString().strip()).isEqualTo("gpuforge vm list: --token-stdin needs an API token as"
                + " USER@REALM!ID=SECRET");
        assertThat(run("", "vm", "list", "--connection", "x", "--libvirt", "qemu:///system")).isEqualTo(2);
        assertThat(err.toString()).contains("exactly one of --connection NAME, --pve URL or --libvirt URI")
                .doesNotContain("Exception");
    }
}
