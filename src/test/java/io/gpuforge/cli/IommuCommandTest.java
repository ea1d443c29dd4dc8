package io.gpuforge.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gpuforge.app.AppPaths;
import io.gpuforge.hypervisor.libvirt.LibvirtBackendException;
import io.gpuforge.hypervisor.libvirt.LibvirtConnection;
import io.gpuforge.testing.HostTrees;
import io.gpuforge.testing.SharedFixtures;
import io.gpuforge.testing.SysrootSshServer;
import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import io.gpuforge.cli.common.CliOutput;

/** {@code gpuforge iommu --json}: the contract other tools read, for listings, sysroots and SSH. */
class IommuCommandTest {

    private static final Pattern ADDRESS = Pattern.compile("[0-9a-f]{4}:[0-9a-f]{2}:[0-9a-f]{2}\\.[0-7]");
    private static final Pattern HEX4 = Pattern.compile("[0-9a-f]{4}");

    @TempDir
    Path home;

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private JsonNode run(String stdin, String... args) throws Exception {
        int code = GpuForgeCli.run(args, AppPaths.underHome(home), new CliOutput(new PrintWriter(out), new PrintWriter(err)),
                new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)));
        assertThat(code).as("exit code, stderr: %s", err).isZero();
        return new ObjectMapper().readTree(out.toString());
    }

    private String text(String stdin, String... args) {
        out.getBuffer().setLength(0);
        int code = GpuForgeCli.run(args, AppPaths.underHome(home), new CliOutput(new PrintWriter(out), new PrintWriter(err)),
                new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)));
        assertThat(code).as("exit code, stderr: %s", err).isZero();
        return out.toString();
    }

    /** The rules of the contract, checked on any document. */
    static void assertContract(JsonNode doc) {
        assertThat(doc.get("source").asText()).isNotBlank();
        assertThat(doc.get("iommu").asText()).isIn("enabled", "disabled", "unknown");
        List<Integer> groupIds = new ArrayList<>();
        for (JsonNode g : doc.get("groups")) {
            groupIds.add(g.get("group").asInt());
            List<String> addrs = new ArrayList<>();
            for (JsonNode d : g.get("devices")) {
                String a = d.get("address").asText();
                assertThat(a).matches(ADDRESS);
                addrs.add(a);
                for (String f : new String[] {"vendor", "device", "class"}) {
                    assertThat(d.has(f)).isTrue();
                    if (!d.get(f).isNull()) {
                        assertThat(d.get(f).asText()).matches(HEX4);
                    }
                }
                assertThat(d.has("name")).isTrue();
                assertThat(d.has("driver")).isTrue();
            }
            assertThat(addrs).isSorted();
        }
        assertThat(groupIds).isSorted();
        for (JsonNode gpu : doc.get("gpus")) {
            assertThat(gpu.get("address").asText()).matches(ADDRESS);
            assertThat(gpu.get("isolation").asText()).isIn("isolated", "shares-with-bridges", "shared");
            List<String> functions = new ArrayList<>();
            gpu.get("functions").forEach(f -> functions.add(f.asText()));
            assertThat(functions).contains(gpu.get("address").asText()).isSorted()
                    .allMatch(f -> f.startsWith(gpu.get("address").asText().substring(0, 11)));
            if (gpu.get("isolation").asText().equals("isolated")) {
                assertThat(gpu.get("shared_with")).isEmpty();
            } else {
                assertThat(gpu.get("shared_with")).isNotEmpty();
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"01-intel-z790-rtx4070-rx590.txt", "03-intel-z690-rx6650xt.txt", "07-intel-z370-gt1030.txt",
                            "09-amd-x570-gtx1070-hd7750.txt"})
    void everyFixtureListing(String name) throws Exception {
        SharedFixtures.read("hosts/" + name);
        JsonNode doc = run("", "iommu", "--listing", SharedFixtures.dir().resolve("hosts/" + name).toString(), "--json");
        assertContract(doc);
        assertThat(doc.get("iommu").asText()).isEqualTo("enabled");
        assertThat(doc.get("gpus")).isNotEmpty();
    }

    @Test
    void gt1030SharesWithItsRootPort() throws Exception {
        SharedFixtures.read("hosts/07-intel-z370-gt1030.txt");
        JsonNode doc = run("", "iommu", "--listing", SharedFixtures.dir().resolve("hosts/07-intel-z370-gt1030.txt")
                .toString(), "--json");
        JsonNode gpu = null;
        for (JsonNode g : doc.get("gpus")) {
            if (g.get("address").asText().equals("0000:01:00.0")) {
                gpu = g;
            }
        }
        assertThat(gpu).isNotNull();
        assertThat(gpu.get("group").asInt()).isEqualTo(2);
        assertThat(gpu.get("isolation").asText()).isEqualTo("shares-with-bridges");
        assertThat(gpu.get("shared_with").get(0).asText()).isEqualTo("0000:00:01.0");
        assertThat(gpu.get("functions")).hasSize(2);
    }

    @Test
    void listingFromStdin() throws Exception {
        JsonNode doc = run("IOMMU Group 5:\n\t2b:00.0 VGA compatible controller [0300]: NVIDIA GA102 [10de:2204]\n"
                + "\t2b:00.1 Audio device [0403]: NVIDIA GA102 Audio [10de:1aef]\n\t2c:00.0 USB controller [0c03]: X [1b21:2142]\n",
                "iommu", "--listing", "-", "--json");
        assertContract(doc);
        assertThat(doc.get("gpus").get(0).get("isolation").asText()).isEqualTo("shared");
        assertThat(doc.get("gpus").get(0).get("shared_with").get(0).asText()).isEqualTo("0000:2c:00.0");
    }

    @Test
    void sysrootsOfEveryKind(@TempDir Path dir) throws Exception {
        Path[] roots = {HostTrees.intelGrub(dir.resolve("a")), HostTrees.proxmoxSystemdBoot(dir.resolve("b")),
            HostTrees.amdFirmwareOff(dir.resolve("c")), HostTrees.noInterruptRemapping(dir.resolve("d")),
            HostTrees.bootVga(dir.resolve("e")), HostTrees.twoIdenticalGpus(dir.resolve("f"))};
        String[] iommu = {"enabled", "enabled", "disabled", "enabled", "enabled", "enabled"};
        int[] gpus = {2, 4, 0, 1, 1, 2};
        for (int i = 0; i < roots.length; i++) {
            out.getBuffer().setLength(0);
            JsonNode doc = run("", "iommu", "--sysroot", roots[i].toString(), "--json");
            assertContract(doc);
            assertThat(doc.get("iommu").asText()).as(roots[i].toString()).isEqualTo(iommu[i]);
            assertThat(doc.get("gpus")).as(roots[i].toString()).hasSize(gpus[i]);
        }
    }

    @Test
    void overSshWithScriptOptions(@TempDir Path dir) throws Exception {
        Path root = HostTrees.intelGrub(dir.resolve("root"));
        try (SysrootSshServer server = new SysrootSshServer(root, dir.resolve("key.ser"))) {
            Path kh = dir.resolve("known_hosts");
            JsonNode doc = run(SysrootSshServer.PASSWORD + "\n", "iommu", "--ssh", "root@127.0.0.1:" + server.port(),
                    "--known-hosts", kh.toString(), "--accept-new-host-key", "--password-stdin", "--json");
            assertContract(doc);
            assertThat(doc.get("source").asText()).isEqualTo("ssh:root@127.0.0.1:" + server.port());
            assertThat(doc.get("gpus")).hasSize(2);
            assertThat(doc.get("groups").get(2).get("devices").get(0).get("driver").asText()).isEqualTo("nvidia");
            assertThat(Files.exists(kh)).isTrue();
        }
    }

    @Test
    void overLibvirtsTestDriver() throws Exception {
        String uri = "test://" + Path.of("src/test/resources/libvirt/gpu-host.xml").toAbsolutePath();
        try {
            LibvirtConnection.open(uri).close();
        } catch (LibvirtBackendException e) {
            assumeThat(System.getenv("CI")).as(e.getMessage()).isNotEqualTo("true");
            Assumptions.abort(e.getMessage());
        }
        JsonNode doc = run("", "iommu", "--libvirt", uri, "--json");
        assertContract(doc);
        assertThat(doc.get("source").asText()).isEqualTo("libvirt:" + uri);
        assertThat(doc.get("gpus")).hasSize(3);
        assertThat(doc.get("gpus").get(0).get("isolation").asText()).isEqualTo("shares-with-bridges");
        out.getBuffer().setLength(0);
        JsonNode inv = run("", "inventory", "--libvirt", uri, "--json");
        assertThat(inv.get("vms")).hasSize(2);
        assertThat(inv.get("vms").toString()).contains("win10-gpu").contains("0000:02:00.1");
        assertThat(inv.get("gpus")).hasSize(3);
    }

    @Test
    void textOutputNamesGroupsAndIsolation(@TempDir Path dir) throws Exception {
        Path root = HostTrees.bootVga(dir);
        int code = GpuForgeCli.run(new String[] {"iommu", "--sysroot", root.toString()}, AppPaths.underHome(home),
                new CliOutput(new PrintWriter(out), new PrintWriter(err)));
        assertThat(code).isZero();
        assertThat(out.toString()).contains("IOMMU group 2:").contains("0000:01:00.0 [0300] 10de:1d01")
                .contains("(driver: nvidia)").contains("GPU 0000:01:00.0 in group 2: shares-with-bridges with [0000:00:01.0]");
    }

    @Test
    void badInputExitsWithTheReason(@TempDir Path dir) throws Exception {
        Path bin = dir.resolve("bin");
        Files.write(bin, new byte[] {0, 1, 2, 3, 0, 5});
        int code = GpuForgeCli.run(new String[] {"iommu", "--listing", bin.toString()}, AppPaths.underHome(home),
                new CliOutput(new PrintWriter(out), new PrintWriter(err)));
        assertThat(code).isEqualTo(1);
        assertThat(err.toString()).contains("binary");
    }

    private String listing(String name) throws Exception {
        return new String(SharedFixtures.read("hosts/" + name), StandardCharsets.UTF_8);
    }

    @Test
    void aListingInAForumPostSaysHowManyLinesItSkipped() throws Exception {
        String post = "Here are my groups:\n```\nroot@pve:~# ./iommu.sh\n" + listing("01-intel-z790-rtx4070-rx590.txt")
                + "```\nThanks!\n";
        JsonNode doc = run(post, "iommu", "--listing", "-", "--json");
        assertContract(doc);
        assertThat(doc.get("gpus")).hasSize(2);
        assertThat(doc.get("skipped_lines").asInt()).isEqualTo(5);
        assertThat(doc.get("partial").asBoolean()).isFalse();
        assertThat(doc.has("skipped")).as("only with --verbose").isFalse();

        out.getBuffer().setLength(0);
        JsonNode verbose = run(post, "iommu", "--listing", "-", "--json", "--verbose");
        assertThat(verbose.get("skipped")).hasSize(5);
        assertThat(verbose.get("skipped").get(0).get("line").asInt()).isEqualTo(1);
        assertThat(verbose.get("skipped").get(0).get("text").asText()).isEqualTo("Here are my groups:");

        assertThat(text(post, "iommu", "--listing", "-")).contains("Skipped 5 of 39 lines: not part of an IOMMU listing (--verbose shows them)")
                .contains("IOMMU group 11:").doesNotContain("line 1: Here are my groups:");
        assertThat(text(post, "iommu", "--listing", "-", "--verbose")).contains("  skipped line 1: Here are my groups:")
                .contains("  skipped line 3: root@pve:~# ./iommu.sh");
    }

    @Test
    void aPartialListingSaysWhereAndWhichGroupsMayHoldMore() throws Exception {
        String cut = listing("01-intel-z790-rtx4070-rx590.txt").replace(
                "\t00:1f.4 SMBus [0c05]: Intel Corporation Raptor Lake-S PCH SMBus Controller [8086:7a23] (rev 11)\n", "...\n");
        JsonNode doc = run(cut, "iommu", "--listing", "-", "--json");
        assertContract(doc);
        assertThat(doc.get("partial").asBoolean()).isTrue();
        assertThat(doc.get("gaps").get(0).get("line").asInt()).isEqualTo(25);
        assertThat(doc.get("gaps").get(0).get("reason").asText()).contains("left out");
        assertThat(doc.get("groups_not_fully_shown").toString()).isEqualTo("[10]");
        assertThat(doc.get("gpus")).hasSize(2);
        for (JsonNode g : doc.get("gpus")) {
            assertThat(g.get("group_fully_shown").asBoolean()).isTrue();
        }

        assertThat(text(cut, "iommu", "--listing", "-")).contains("Partial listing:").contains("line 25 ('...'): lines were left out here")
                .contains("IOMMU group 10 may hold more devices than shown");
    }

    @Test
    void liveSourcesAreNeverPartial(@TempDir Path dir) throws Exception {
        JsonNode doc = run("", "iommu", "--sysroot", HostTrees.intelGrub(dir).toString(), "--json");
        assertThat(doc.get("partial").asBoolean()).isFalse();
        assertThat(doc.get("skipped_lines").asInt()).isZero();
        assertThat(doc.get("gpus").get(0).get("group_fully_shown").asBoolean()).isTrue();
    }

    @Test
    void proseWithoutAListingIsRefusedSayingWhatToPaste() throws Exception {
        int code = GpuForgeCli.run(new String[] {"iommu", "--listing", "-"}, AppPaths.underHome(home),
                new CliOutput(new PrintWriter(out), new PrintWriter(err)),
                new ByteArrayInputStream("My GPU does not show up, any idea?\n".getBytes(StandardCharsets.UTF_8)));
        assertThat(code).isEqualTo(1);
        assertThat(err.toString()).contains("No IOMMU group with a device was found").contains("/sys/kernel/iommu_groups");
    }
}
