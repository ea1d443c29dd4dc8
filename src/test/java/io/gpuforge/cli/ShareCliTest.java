package io.gpuforge.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gpuforge.app.AppPaths;
import io.gpuforge.cli.common.CliOutput;
import io.gpuforge.demo.PveSimulator;
import io.gpuforge.demo.SimCluster;
import io.gpuforge.demo.SimHost;
import io.gpuforge.demo.SimHosts;
import io.gpuforge.host.HostShell;
import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import io.gpuforge.testing.Eventually;

/**
 * {@code gpuforge share} and {@code gpuforge ct} on the Demo lab: the GPU's readiness, the host plan, a container
 * made with the shared GPU, and who shares what (the container configured the old way too).
 */
class ShareCliTest {

    @TempDir
    Path home;
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();
    private static final String TEMPLATE = "local:vztmpl/debian-12-standard_12.7-1_amd64.tar.zst";
    private static final String GPU = "0000:04:00.0";

    private int run(String stdin, String... args) {
        out.getBuffer().setLength(0);
        err.getBuffer().setLength(0);
        return GpuForgeCli.run(args, AppPaths.underHome(home), new CliOutput(new PrintWriter(out), new PrintWriter(err)),
                new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)));
    }

    private JsonNode json() throws Exception {
        return new ObjectMapper().readTree(out.toString());
    }

    @Test
    void onTheDemoLabAContainerIsMadeWithTheSharedGpuInOneCommand() throws Exception {
        assertThat(run("", "connection", "add", "Demo lab", "--demo")).as(err.toString()).isZero();
        assertThat(run("", "share", "check", "--connection", "Demo lab", "--node", "pve-3090", "--gpu", GPU))
                .as(out.toString() + err).isEqualTo(3);
        assertThat(out.toString()).contains("needs-host-setup").contains("host driver nvidia 550.127.05")
                .contains("/dev/nvidia-uvm exists only after the driver's first use");
        assertThat(run("", "share", "check", "--connection", "Demo lab", "--node", "pve-4090", "--gpu",
                "0000:01:00.0")).as("passed through to train-01").isEqualTo(1);
        assertThat(out.toString()).contains("blocked").contains("bound to vfio-pci");

        assertThat(run("", "ct", "create", "--connection", "Demo lab", "--node", "pve-3090", "--name", "cuda-1",
                "--template", TEMPLATE, "--gpu", GPU)).isEqualTo(1);
        assertThat(err.toString()).contains("refused, nothing changed").contains("needs its host plan first");

        assertThat(run("", "ct", "create", "--connection", "Demo lab", "--node", "pve-3090", "--name", "cuda-1",
                "--template", TEMPLATE, "--gpu", GPU, "--with-host-plan", "--yes", "--start")).as(out + "" + err)
                .isZero();
        assertThat(out.toString()).contains("+ExecStart=/usr/bin/nvidia-modprobe -c 0 -c 1 -c 2 -c 3 -u")
                .contains("Container 100 (cuda-1) made on pve-3090, running, sharing " + GPU + ":")
                .contains("  dev0: /dev/nvidia3", "  dev1: /dev/nvidiactl", "  dev2: /dev/nvidia-uvm",
                        "  dev3: /dev/nvidia-uvm-tools")
                .contains("install NVIDIA's user-space driver 550.127.05 without its kernel module");

        assertThat(run("", "share", "list", "--connection", "Demo lab", "--node", "pve-3090", "--json")).isZero();
        JsonNode gpus = json().get("nodes").get(0).get("gpus");
        List<String> lines = new ArrayList<>();
        gpus.forEach(g -> g.get("containers").forEach(c -> lines.add(g.get("gpu").asText() + " " + c.get("vmid")
                + " " + c.get("how").asText())));
        assertThat(lines).as("the Demo lab remembers: cuda-1 made by the last command, beside the old way's media-01")
                .containsExactly(GPU + " 100 devN", GPU + " 201 legacy-lxc-lines");
    }

    /** The same lab over several commands: a simulator of the test's own, its pve-3090 host read as a tree. */
    @Test
    void theHostPlanThenAContainerThenWhoSharesWhatAcrossCommands() throws Exception {
        SimCluster cluster = SimCluster.demo();
        try (PveSimulator sim = new PveSimulator(cluster); SimHosts hosts = new SimHosts(cluster)) {
            SimHost h = hosts.host("pve-3090").orElseThrow().lineDelay(Duration.ZERO)
                    .rebootTakes(Duration.ofMillis(200));
            String[] at = {"--pve", sim.url(), "--fingerprint", sim.certificateFingerprint(), "--token-stdin",
                    "--node", "pve-3090", "--sysroot", h.root().toString()};
            assertThat(run(sim.token(), concat(new String[] {"share", "apply", "--gpu", GPU, "--yes"}, at)))
                    .as(out + "" + err).isZero();
            assertThat(Files.exists(h.root().resolve("etc/systemd/system/gpuforge-nvidia-nodes.service"))).isTrue();
            try (HostShell s = h.shell()) {
                s.run("systemctl reboot", new byte[0], Duration.ofSeconds(5));
            }
            Eventually.until("the simulated host back up", Duration.ofSeconds(30), () -> h.up());
            assertThat(run(sim.token(), concat(new String[] {"share", "check", "--gpu", GPU}, at))).isZero();
            assertThat(run(sim.token(), concat(new String[] {"ct", "create", "--name", "cuda-1", "--template",
                    TEMPLATE, "--gpu", GPU, "--start", "--json"}, at))).as(out + "" + err).isZero();
            assertThat(json().get("status").asText()).isEqualTo("running");
            assertThat(run(sim.token(), concat(new String[] {"ct", "add-gpu", "100", "--gpu", GPU}, at))).isEqualTo(1);
            assertThat(err.toString()).contains("is running").contains("stop it first");

            assertThat(run(sim.token(), concat(new String[] {"share", "list"}, at))).as(err.toString()).isZero();
            assertThat(out.toString()).contains("GPU " + GPU).contains("shared by 2 containers")
                    .contains("CT 100 cuda-1 (running): /dev/nvidia3, /dev/nvidiactl, /dev/nvidia-uvm,"
                            + " /dev/nvidia-uvm-tools  [devN]")
                    .contains("CT 201 media-01 (stopped):").contains("[shared the old way: raw lxc lines]");

            String before = Files.readString(h.root().resolve("etc/pve/lxc/201.conf"));
            assertThat(run(sim.token(), concat(new String[] {"ct", "migrate", "201", "--yes"}, at)))
                    .as(out + "" + err).isZero();
            assertThat(out.toString()).contains("-lxc.cgroup2.devices.allow: c 195:* rwm")
                    .contains("+dev0: /dev/nvidia3").contains("now gets its GPU by devN");
            assertThat(run(sim.token(), concat(new String[] {"share", "list"}, at))).isZero();
            assertThat(out.toString()).as("the nodes its old lines bound, now as devN").contains(
                    "CT 201 media-01 (stopped): /dev/nvidia3, /dev/nvidiactl, /dev/nvidia-uvm  [devN]")
                    .doesNotContain("old way");
            assertThat(run("", "rollback", "--sysroot", h.root().toString())).as(out + "" + err).isZero();
            assertThat(Files.readString(h.root().resolve("etc/pve/lxc/201.conf"))).isEqualTo(before);
            assertThat(run(sim.token(), concat(new String[] {"share", "list"}, at))).isZero();
            assertThat(out.toString()).contains("[shared the old way: raw lxc lines]");

            assertThat(run(sim.token(), concat(new String[] {"ct", "delete", "100"}, at))).isEqualTo(1);
            assertThat(err.toString()).contains("is running");
            assertThat(run(sim.token(), concat(new String[] {"ct", "stop", "100"}, at))).isZero();
            assertThat(run(sim.token(), concat(new String[] {"ct", "delete", "100"}, at))).isZero();
            assertThat(run(sim.token(), concat(new String[] {"ct", "list", "--json"}, at))).isZero();
            assertThat(json().get("containers")).hasSize(1);
        }
    }

    private static String[] concat(String[] a, String[] b) {
        String[] out = new String[a.length + b.length];
        System.arraycopy(a, 0, out, 0, a.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
