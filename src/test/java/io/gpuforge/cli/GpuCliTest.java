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
import io.gpuforge.testing.SharedFixtures;
import io.gpuforge.testing.TestContexts;
import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import io.gpuforge.cli.common.CliOutput;

/** gpuforge gpu list|watch|power-limit|energy, end to end through the app's TelemetryService. */
class GpuCliTest {

    @TempDir
    Path home;

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        out.getBuffer().setLength(0);
        err.getBuffer().setLength(0);
        return GpuForgeCli.run(args, AppPaths.underHome(home), new CliOutput(new PrintWriter(out), new PrintWriter(err)));
    }

    private Path vegaSysroot(Path root) throws Exception {
        Path src = SharedFixtures.dir().resolve("hwmon/03-vega56-gfx9-lact");
        SharedFixtures.read("hwmon/03-vega56-gfx9-lact/card0/device/uevent");
        Path drm = root.resolve("sys/class/drm");
        try (Stream<Path> all = Files.walk(src)) {
            for (Path p : all.toList()) {
                Path to = drm.resolve(src.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(to);
                } else {
                    Files.copy(p, to, StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
        return root;
    }

    @Test
    void aPowerLimitIsNeverSetOnThisComputerUnlessToldSo() {
        assertThat(run("gpu", "power-limit", "--gpu", "0000:01:00.0", "--watts", "200", "--persist")).isEqualTo(2);
        assertThat(err.toString()).contains("--local for this computer");
        assertThat(out.toString()).isEmpty();
    }

    @Test
    void watchPrintsJsonLinesWithAbsentReadingsLeftOut(@TempDir Path root) throws Exception {
        vegaSysroot(root);
        int code = run("gpu", "watch", "--sysroot", root.toString(), "--interval", "0.2", "--json", "--count", "3");
        assertThat(code).as(err.toString()).isZero();
        List<String> lines = out.toString().lines().toList();
        assertThat(lines).hasSize(3);
        JsonNode j = new ObjectMapper().readTree(lines.get(0));
        assertThat(j.get("gpu").asText()).isEqualTo("0000:0b:00.0");
        assertThat(j.get("temperature_c").asDouble()).isEqualTo(38);
        assertThat(j.get("power_w").asDouble()).isEqualTo(8);
        assertThat(j.get("power_limit_w").asDouble()).isEqualTo(260);
        assertThat(j.get("source").asText()).isEqualTo("hwmon");
        assertThat(j.has("memory_utilization_pct")).as("absent, never 0").isFalse();
        assertThat(j.has("time")).isTrue();
        assertThat(j.has("host")).isTrue();
        assertThat(j.has("name")).isTrue();
        assertThat(err.toString()).contains("amdgpu hwmon");
    }

    @Test
    void theDemoLabsGpusAreListedAsSimulatedAndTheirEnergyIsReported() throws Exception {
        try (AppContext ctx = TestContexts.create(home, home.resolve("no-sysroot"), ThemeChoice.LIGHT,
                LanguageChoice.ENGLISH)) {
            ctx.connections().addDemo("Demo lab");
        }
        assertThat(run("gpu", "list", "--connection", "Demo lab", "--json")).as(err.toString()).isZero();
        JsonNode gpus = new ObjectMapper().readTree(out.toString()).get("gpus");
        assertThat(gpus).hasSizeGreaterThanOrEqualTo(6);
        assertThat(gpus).allSatisfy(g -> {
            assertThat(g.get("source").asText()).isEqualTo("simulated");
            assertThat(g.get("temperature_c").asDouble()).isBetween(20.0, 95.0);
            assertThat(g.get("power_w").asDouble()).isPositive();
        });
        assertThat(run("gpu", "watch", "--connection", "Demo lab", "--interval", "0.2", "--csv", "--count", "24"))
                .as(err.toString()).isZero();
        assertThat(out.toString().lines().findFirst().orElse("")).startsWith("time,host,gpu,name,source,temperature_c");
        assertThat(run("gpu", "energy", "--since", "1h", "--json")).as(err.toString()).isZero();
        JsonNode e = new ObjectMapper().readTree(out.toString());
        assertThat(e.get("total").get("energy_j").asDouble()).isPositive();
        assertThat(e.get("total").get("gaps_s").asDouble()).as("an hour asked, seconds measured").isPositive();
    }

    @Test
    void aPowerLimitOutsideTheBoardsRangeIsRefusedAndOneInsideIsSet() throws Exception {
        try (AppContext ctx = TestContexts.create(home, home.resolve("no-sysroot"), ThemeChoice.LIGHT,
                LanguageChoice.ENGLISH)) {
            ctx.connections().addDemo("Demo lab");
        }
        assertThat(run("gpu", "power-limit", "--connection", "Demo lab", "--gpu", "0000:01:00.0", "--watts", "5000"))
                .isEqualTo(1);
        assertThat(err.toString()).contains("outside what").contains("choose a limit in that range");
        assertThat(run("gpu", "power-limit", "--connection", "Demo lab", "--gpu", "0000:01:00.0", "--watts", "300",
                "--json")).as(err.toString()).isZero();
        assertThat(new ObjectMapper().readTree(out.toString()).get("power_limit_w").asDouble()).isEqualTo(300);
    }

    private int runWithStdin(String stdin, String... args) {
        out.getBuffer().setLength(0);
        err.getBuffer().setLength(0);
        return GpuForgeCli.run(args, AppPaths.underHome(home), new CliOutput(new PrintWriter(out), new PrintWriter(err)),
                new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void aProxmoxClusterNamedOnTheSpotIsReadThroughTheGuestAgentOfItsRunningVms() throws Exception {
        try (PveSimulator sim = new PveSimulator(SimCluster.demo())) {
            String[] pve = {"--pve", sim.url(), "--fingerprint", sim.certificateFingerprint(), "--pve-user", "root@pam",
                "--pve-password-stdin"};
            String[] watch = Stream.concat(Stream.of("gpu", "watch"), Stream.concat(Arrays.stream(pve),
                    Stream.of("--vm", "101", "--interval", "0.2", "--json", "--count", "2"))).toArray(String[]::new);
            assertThat(runWithStdin(sim.password() + "\n", watch)).as(err.toString()).isZero();
            List<String> lines = out.toString().lines().toList();
            assertThat(lines).hasSize(2);
            for (String l : lines) {
                JsonNode j = new ObjectMapper().readTree(l);
                assertThat(j.get("source").asText()).isEqualTo("guest-agent");
                assertThat(j.get("name").asText()).isEqualTo("NVIDIA GeForce RTX 4090");
                assertThat(j.get("host").asText()).isEqualTo("vm:101@pve-4090");
                assertThat(j.get("temperature_c").asDouble()).isEqualTo(61);
                assertThat(j.get("vm").asText()).contains("101");
            }
            String[] list = Stream.concat(Stream.of("gpu", "list"), Stream.concat(Arrays.stream(pve),
                    Stream.of("--json"))).toArray(String[]::new);
            assertThat(runWithStdin(sim.password() + "\n", list)).as(err.toString()).isZero();
            JsonNode gpus = new ObjectMapper().readTree(out.toString()).get("gpus");
            assertThat(gpus).isNotEmpty().allSatisfy(g -> assertThat(g.get("source").asText()).isEqualTo("guest-agent"));
            assertThat(gpus).anySatisfy(g -> assertThat(g.get("host").asText()).isEqualTo("vm:101@pve-4090"));

            assertThat(runWithStdin("wrong password\n", list)).isEqualTo(1);
            assertThat(err.toString()).as("a refused login says so").containsIgnoringCase("authentication");
        }
    }

    @Test
    void aBadWindowIsAUsageError() {
        assertThat(run("gpu", "energy", "--since", "yesterday-ish")).isEqualTo(2);
        assertThat(err.toString()).contains("neither an ISO time");
    }
}
