package io.gpuforge.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.domain.passthrough.Verdict;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gpuforge.app.AppPaths;
import io.gpuforge.testing.HostTrees;
import io.gpuforge.testing.SharedFixtures;
import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import io.gpuforge.cli.common.CliOutput;

/** {@code gpuforge check} without {@code --device}: "which of my GPUs can I pass through?". */
class CheckCommandTest {

    @TempDir
    Path dir;

    private int code;
    private String err;

    private String run(String stdin, String... args) {
        StringWriter out = new StringWriter();
        StringWriter e = new StringWriter();
        code = GpuForgeCli.run(args, AppPaths.underHome(dir.resolve("home")), new CliOutput(new PrintWriter(out),
                new PrintWriter(e)), new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)));
        err = e.toString();
        return out.toString();
    }

    private JsonNode json(String stdin, String... args) throws Exception {
        String out = run(stdin, args);
        assertThat(code).as(err).isZero();
        return new ObjectMapper().readTree(out);
    }

    private static String fixture(String name) throws Exception {
        return new String(SharedFixtures.read("hosts/" + name), StandardCharsets.UTF_8);
    }

    private static List<String> texts(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(x -> out.add(x.isObject() ? x.get("id").asText() : x.asText()));
        return out;
    }

    private static JsonNode gpu(JsonNode doc, String address) {
        for (JsonNode g : doc.get("gpus")) {
            if (g.get("address").asText().equals(address)) {
                return g;
            }
        }
        throw new AssertionError("no GPU " + address + " in " + doc.get("gpus"));
    }

    @Test
    void withoutADeviceEveryGpuGetsItsVerdictAndTheChecksBehindIt() throws Exception {
        JsonNode doc = json(fixture("01-intel-z790-rtx4070-rx590.txt"), "check", "--listing", "-", "--json");
        assertThat(doc.get("source").asText()).isEqualTo("listing:-");
        assertThat(texts(doc.get("host"))).containsExactly("iommu.firmware", "iommu.kernel", "iommu.interrupt-remapping",
                "modules.vfio", "acs.override", "vm.machine");
        assertThat(texts(doc.get("checks"))).as("today's field stays").isEqualTo(texts(doc.get("host")));
        assertThat(doc.has("verdict")).isFalse();
        assertThat(doc.get("gpus")).hasSize(2);
        JsonNode rtx = gpu(doc, "0000:01:00.0");
        assertThat(rtx.get("name").asText()).isEqualTo("NVIDIA Corporation AD104 [GeForce RTX 4070]");
        assertThat(rtx.get("verdict").asText()).isEqualTo("needs-host-setup");
        assertThat(texts(rtx.get("because"))).contains("modules.vfio");
        assertThat(texts(rtx.get("checks"))).contains("modules.vfio", "driver.binding", "bar.large", "power.d3cold")
                .doesNotContain("group.isolation", "vm.machine", "iommu.firmware");
        JsonNode rx590 = gpu(doc, "0000:04:00.0");
        assertThat(texts(rx590.get("checks"))).as("the AMD reset bug").contains("reset.support");
    }

    @ParameterizedTest
    @ValueSource(strings = {"01-intel-z790-rtx4070-rx590.txt", "03-intel-z690-rx6650xt.txt", "07-intel-z370-gt1030.txt",
                            "09-amd-x570-gtx1070-hd7750.txt"})
    void eachGpusVerdictIsTheOneCheckGivesForThatDevice(String file) throws Exception {
        String listing = fixture(file);
        JsonNode all = json(listing, "check", "--listing", "-", "--json");
        assertThat(all.get("gpus")).isNotEmpty();
        for (JsonNode g : all.get("gpus")) {
            JsonNode one = json(listing, "check", "--listing", "-", "--device", g.get("address").asText(), "--json");
            assertThat(g.get("verdict").asText()).as(g.toString()).isEqualTo(one.get("verdict").asText());
            assertThat(g.get("because")).isEqualTo(one.get("because"));
            List<String> notPassing = new ArrayList<>();
            for (JsonNode c : one.get("checks")) {
                if (!c.get("status").asText().equals("pass") && !texts(all.get("host")).contains(c.get("id").asText())) {
                    notPassing.add(c.get("id").asText());
                }
            }
            assertThat(texts(g.get("checks"))).containsAll(notPassing).containsAll(texts(one.get("because")));
        }
    }

    @Test
    void everyDisplayFunctionCountsInOrOutOfAGroup() throws Exception {
        // a Tesla P40 is a 3D controller (0302); the HD 7750's header was cut, so it has no group here
        String text = fixture("09-amd-x570-gtx1070-hd7750.txt").replace("IOMMU Group 25:\n", "...\n")
                + "IOMMU group 40 41:00.0 3D controller [0302]: NVIDIA Corporation GP102GL [Tesla P40] [10de:1b38] (rev a1)\n";
        JsonNode doc = json(text, "check", "--listing", "-", "--json");
        List<String> addresses = new ArrayList<>();
        doc.get("gpus").forEach(g -> addresses.add(g.get("address").asText()));
        assertThat(addresses).containsExactly("0000:09:00.0", "0000:0a:00.0", "0000:41:00.0");
        JsonNode hd = gpu(doc, "0000:0a:00.0");
        assertThat(hd.get("verdict").asText()).isEqualTo("needs-host-setup");
        assertThat(texts(hd.get("checks"))).contains("group.isolation");
        assertThat(doc.get("partial").asBoolean()).isTrue();
        assertThat(doc.get("skipped_lines").asInt()).isZero();
    }

    @Test
    void aCardOnVfioInItsOwnGroupIsReadyBesideAnIgpuThatIsNot() throws Exception {
        JsonNode doc = json(fixture("03-intel-z690-rx6650xt.txt") + fixture("03-intel-z690-rx6650xt.lspci-nnk.txt"),
                "check", "--listing", "-", "--json");
        assertThat(gpu(doc, "0000:03:00.0").get("verdict").asText()).isEqualTo("ready");
        assertThat(texts(gpu(doc, "0000:03:00.0").get("checks")))
                .doesNotContain("group.isolation", "group.host-critical", "driver.binding", "modules.vfio");
        assertThat(gpu(doc, "0000:00:02.0").get("verdict").asText()).isEqualTo("needs-host-setup");
    }

    @Test
    void sysrootsGiveVerdictsForEveryGpuToo() throws Exception {
        JsonNode grub = json("", "check", "--sysroot", HostTrees.intelGrub(dir.resolve("a")).toString(), "--json");
        assertThat(grub.get("gpus")).hasSize(2);
        assertThat(gpu(grub, "0000:01:00.0").get("verdict").asText()).isEqualTo("needs-host-setup");
        assertThat(texts(gpu(grub, "0000:01:00.0").get("checks"))).contains("driver.binding");

        JsonNode boot = json("", "check", "--sysroot", HostTrees.bootVga(dir.resolve("b")).toString(), "--json");
        assertThat(gpu(boot, "0000:01:00.0").get("verdict").asText()).isEqualTo("blocked");
        assertThat(texts(gpu(boot, "0000:01:00.0").get("because"))).containsExactly("group.host-critical");

        JsonNode off = json("", "check", "--sysroot", HostTrees.amdFirmwareOff(dir.resolve("c")).toString(), "--json");
        assertThat(gpu(off, "0000:09:00.0").get("verdict").asText()).isEqualTo("blocked");
        assertThat(texts(gpu(off, "0000:09:00.0").get("because"))).containsExactly("iommu.firmware");
    }

    @Test
    void withADeviceTodaysFieldsStayAndHostAndGpusAreAdded() throws Exception {
        JsonNode doc = json(fixture("07-intel-z370-gt1030.txt"), "check", "--listing", "-", "--device", "0000:01:00.0",
                "--json");
        assertThat(doc.get("device").asText()).isEqualTo("0000:01:00.0");
        assertThat(doc.get("verdict").asText()).isEqualTo("needs-host-setup");
        assertThat(doc.get("because")).isNotEmpty();
        assertThat(texts(doc.get("checks"))).contains("group.isolation", "vm.machine");
        assertThat(texts(doc.get("host"))).doesNotContain("group.isolation");
        assertThat(doc.get("gpus")).hasSize(2);
    }

    @Test
    void textOutputHasABlockPerGpu() throws Exception {
        String out = run(fixture("01-intel-z790-rtx4070-rx590.txt"), "check", "--listing", "-");
        assertThat(code).as(err).isZero();
        assertThat(out).contains("PASS     iommu.firmware")
                .contains("GPU 0000:01:00.0  NVIDIA Corporation AD104 [GeForce RTX 4070]\n  Verdict: needs host setup (")
                .contains("GPU 0000:04:00.0  Advanced Micro Devices, Inc. [AMD/ATI] Ellesmere")
                .contains("  WARN     reset.support              This AMD GPU (67df) has the reset bug");
        assertThat(out.indexOf("GPU 0000:01:00.0")).isLessThan(out.indexOf("GPU 0000:04:00.0"));
        String zh = run(fixture("01-intel-z790-rtx4070-rx590.txt"), "check", "--listing", "-", "--lang", "zh-CN");
        assertThat(zh).contains("GPU 0000:01:00.0").contains("需要配置主机");
    }

    @Test
    void aListingsSkippedLinesAndGapsAreReportedByCheckToo() throws Exception {
        String post = "My groups:\n```\n" + fixture("01-intel-z790-rtx4070-rx590.txt").replace("IOMMU Group 12:\n",
                "...\nIOMMU Group 12:\n") + "```\n";
        JsonNode doc = json(post, "check", "--listing", "-", "--json", "--verbose");
        assertThat(doc.get("skipped_lines").asInt()).isEqualTo(3);
        assertThat(doc.get("skipped")).hasSize(3);
        assertThat(doc.get("partial").asBoolean()).isTrue();
        JsonNode rtx = gpu(doc, "0000:01:00.0");
        assertThat(texts(rtx.get("because"))).as("group 11 is next to the cut").contains("group.isolation");
        String text = run(post, "check", "--listing", "-");
        assertThat(text).contains("Skipped 3 of 38 lines").contains("Partial listing:");
    }

    /** A "listing" that never ends is refused by name before it is read, not read until the memory runs out. */
    @Test
    void aListingPastItsLimitIsRefusedByName() {
        run("", "check", "--listing", "/dev/zero");
        assertThat(code).isEqualTo(2);
        assertThat(err).contains("--listing /dev/zero is a character device, not a regular file");
    }
}
