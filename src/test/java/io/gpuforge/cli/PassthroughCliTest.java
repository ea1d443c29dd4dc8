package io.gpuforge.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gpuforge.app.AppPaths;
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
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import io.gpuforge.cli.common.CliOutput;

/** check / plan / apply / verify / rollback as a user runs them. */
class PassthroughCliTest {

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

    private JsonNode json(String... args) throws Exception {
        String out = run("", args);
        assertThat(code).as(err).isZero();
        return new ObjectMapper().readTree(out);
    }

    private static String status(JsonNode doc, String id) {
        for (JsonNode c : doc.get("checks")) {
            if (c.get("id").asText().equals(id)) {
                return c.get("status").asText();
            }
        }
        throw new AssertionError("no check " + id);
    }

    /**
     * The verdict a careful admin gives each GPU of the real listings, and why:
     * a listing shows groups (and drivers with lspci -nnk) but not the host's vfio setup.
     */
    @ParameterizedTest(name = "{0} {1}: {2}")
    @CsvSource(delimiter = '|', value = {
        // RTX 4070 alone in group 11: hardware fine, host setup unknown from a listing
        "01-intel-z790-rtx4070-rx590.txt | 0000:01:00.0 | needs-host-setup | isolated | pass",
        // RX 590 (Polaris) alone in group 13, but AMD's reset bug: warn, still only host setup to do
        "01-intel-z790-rtx4070-rx590.txt | 0000:04:00.0 | needs-host-setup | isolated | warn",
        // GT 1030 shares group 2 with the CPU root port only: bridges need not go along
        "07-intel-z370-gt1030.txt | 0000:01:00.0 | needs-host-setup | bridges | pass",
        // GTX 1070 alone in group 24
        "09-amd-x570-gtx1070-hd7750.txt | 0000:09:00.0 | needs-host-setup | isolated | pass",
        // HD 7750 alone in group 25
        "09-amd-x570-gtx1070-hd7750.txt | 0000:0a:00.0 | needs-host-setup | isolated | pass"})
    void verdictsForTheRealListings(String file, String device, String verdict, String isolation, String reset)
            throws Exception {
        SharedFixtures.read("hosts/" + file);
        JsonNode doc = json("check", "--listing", SharedFixtures.dir().resolve("hosts/" + file).toString(),
                "--device", device, "--json");
        assertThat(doc.get("verdict").asText()).isEqualTo(verdict);
        assertThat(status(doc, "group.isolation")).isEqualTo("pass");
        assertThat(status(doc, "reset.support")).isEqualTo(reset.equals("pass") ? "unknown" : reset);
        String msg = doc.get("checks").toString();
        assertThat(msg).contains(isolation.equals("bridges") ? "PCI bridges only" : "only this card");
        assertThat(doc.get("because").toString()).contains("modules.vfio");
    }

    @Test
    void rx6650xtAlreadyOnVfioIsReady() throws Exception {
        byte[] listing = SharedFixtures.read("hosts/03-intel-z690-rx6650xt.txt");
        byte[] lspci = SharedFixtures.read("hosts/03-intel-z690-rx6650xt.lspci-nnk.txt");
        Path both = dir.resolve("both.txt");
        Files.write(both, (new String(listing, StandardCharsets.UTF_8) + new String(lspci, StandardCharsets.UTF_8))
                .getBytes(StandardCharsets.UTF_8));
        JsonNode doc = json("check", "--listing", both.toString(), "--device", "0000:03:00.0", "--json");
        // bound to vfio-pci (lspci -nnk) in its own group: a careful admin calls it ready
        assertThat(doc.get("verdict").asText()).isEqualTo("ready");
        assertThat(status(doc, "driver.binding")).isEqualTo("pass");
        assertThat(status(doc, "modules.vfio")).isEqualTo("pass");
    }

    @Test
    void hostVerdictsOnSysroots() throws Exception {
        JsonNode off = json("check", "--sysroot", HostTrees.amdFirmwareOff(dir.resolve("a")).toString(),
                "--device", "0000:09:00.0", "--json");
        assertThat(off.get("verdict").asText()).isEqualTo("blocked");
        assertThat(status(off, "iommu.firmware")).isEqualTo("fail");
        assertThat(off.get("checks").get(0).get("fix").asText()).contains("IOMMU").contains("SVM");
        assertThat(off.get("checks").get(0).get("fix_zh_CN").asText()).contains("BIOS");

        JsonNode boot = json("check", "--sysroot", HostTrees.bootVga(dir.resolve("b")).toString(),
                "--device", "0000:01:00.0", "--json");
        assertThat(boot.get("verdict").asText()).isEqualTo("blocked");
        assertThat(status(boot, "group.host-critical")).isEqualTo("fail");
        assertThat(status(boot, "bar.large")).isEqualTo("warn");

        JsonNode noremap = json("check", "--sysroot", HostTrees.noInterruptRemapping(dir.resolve("c")).toString(),
                "--json");
        assertThat(status(noremap, "iommu.interrupt-remapping")).isEqualTo("warn");
        assertThat(noremap.has("verdict")).isFalse();

        JsonNode pve = json("check", "--sysroot", HostTrees.proxmoxSystemdBoot(dir.resolve("d")).toString(),
                "--device", "0000:81:00.0", "--json");
        assertThat(status(pve, "modules.vfio")).isEqualTo("warn");
        assertThat(pve.get("checks").toString()).contains("vfio_virqfd");
        assertThat(status(pve, "modules.vfio")).isEqualTo("warn");
        assertThat(status(pve, "group.host-critical")).isEqualTo("pass");

        String zh = run("", "check", "--sysroot", dir.resolve("a").toString(), "--lang", "zh-CN");
        assertThat(zh).contains("没有 IVRS 表");
    }

    @Test
    void overrideFlagsReachCheckAndPlan() throws Exception {
        Path boot = HostTrees.bootVga(dir.resolve("o"));
        JsonNode allowed = json("check", "--sysroot", boot.toString(), "--device", "0000:01:00.0",
                "--allow-host-critical", "--json");
        assertThat(status(allowed, "group.host-critical")).isEqualTo("warn");
        assertThat(allowed.get("verdict").asText()).isNotEqualTo("blocked");

        run("", "plan", "--sysroot", boot.toString(), "--device", "0000:01:00.0");
        assertThat(code).as("plan refuses the boot GPU without the override").isNotZero();
        String plan = run("", "plan", "--sysroot", boot.toString(), "--device", "0000:01:00.0", "--allow-host-critical");
        assertThat(code).as(err).isZero();
        assertThat(plan).contains("vfio-pci");
    }

    @Test
    void planApplyVerifyRollbackOnASysroot() throws Exception {
        Path root = HostTrees.intelGrub(dir.resolve("h"));
        String grubBefore = Files.readString(root.resolve("etc/default/grub"));
        String plan = run("", "plan", "--sysroot", root.toString(), "--device", "0000:01:00.0");
        assertThat(code).as(err).isZero();
        assertThat(plan).contains("+GRUB_CMDLINE_LINUX_DEFAULT=\"quiet splash intel_iommu=on iommu=pt\"")
                .contains("$ update-grub").contains("A reboot is needed");
        assertThat(Files.readString(root.resolve("etc/default/grub"))).isEqualTo(grubBefore);

        run("n\n", "apply", "--sysroot", root.toString(), "--device", "0000:01:00.0");
        assertThat(code).isEqualTo(1);
        assertThat(err).contains("not applied");
        assertThat(Files.readString(root.resolve("etc/default/grub"))).isEqualTo(grubBefore);

        JsonNode applied = new ObjectMapper().readTree(run("", "apply", "--sysroot", root.toString(), "--device",
                "0000:01:00.0", "--yes", "--json"));
        assertThat(code).as(err).isZero();
        assertThat(applied.get("status").asText()).isEqualTo("applied");
        assertThat(applied.get("commands_not_run").toString()).contains("update-grub");
        assertThat(applied.get("reboot").asBoolean()).isTrue();
        assertThat(json("apply", "--sysroot", root.toString(), "--device", "0000:01:00.0", "--yes", "--json")
                .get("status").asText()).isEqualTo("nothing-to-do");

        // not rebooted yet: verify says what is missing
        String before = run("", "verify", "--sysroot", root.toString());
        assertThat(code).isEqualTo(1);
        assertThat(before).contains("FAIL  cmdline.iommu=pt").contains("FAIL  driver.0000:01:00.0")
                .contains("bound to nvidia, not vfio-pci");
        // "reboot": the running kernel now has the arguments and vfio-pci holds the card
        Files.writeString(root.resolve("proc/cmdline"), Files.readString(root.resolve("proc/cmdline")).strip() + " iommu=pt\n");
        for (String f : new String[] {"0000:01:00.0", "0000:01:00.1"}) {
            Path link = root.resolve("sys/devices/pci0000:00/" + f + "/driver");
            Files.delete(link);
            Files.createDirectories(root.resolve("sys/bus/pci/drivers/vfio-pci"));
            Files.createSymbolicLink(link, Path.of("../../../bus/pci/drivers/vfio-pci"));
        }
        JsonNode ok = json("verify", "--sysroot", root.toString(), "--json");
        assertThat(ok.get("ok").asBoolean()).isTrue();
        List<String> ids = new ArrayList<>();
        ok.get("items").forEach(i -> ids.add(i.get("id").asText()));
        assertThat(ids).contains("cmdline.iommu=pt", "iommu.groups", "driver.0000:01:00.0", "driver.0000:01:00.1",
                "dmesg.vfio");

        JsonNode back = json("rollback", "--sysroot", root.toString(), "--json");
        assertThat(back.get("status").asText()).isEqualTo("rolled-back");
        assertThat(Files.readString(root.resolve("etc/default/grub"))).isEqualTo(grubBefore);
        assertThat(root.resolve("etc/modprobe.d/gpuforge-vfio.conf")).doesNotExist();
    }

    private String[] ssh(SysrootSshServer server) {
        return new String[] {"--ssh", "root@127.0.0.1:" + server.port(), "--known-hosts", dir.resolve("kh").toString(),
            "--accept-new-host-key", "--password-stdin"};
    }

    private static final String PW = SysrootSshServer.PASSWORD + "\n";

    @Test
    void planApplyAndRollbackOverSsh() throws Exception {
        Path root = HostTrees.withBootTools(HostTrees.intelGrub(dir.resolve("remote")));
        String grubBefore = Files.readString(root.resolve("etc/default/grub"));
        String cfgBefore = Files.readString(root.resolve("boot/grub/grub.cfg"));
        try (SysrootSshServer server = new SysrootSshServer(root, dir.resolve("hk"))) {
            String plan = run(PW, concat(new String[] {"plan", "--device", "0000:01:00.0"}, ssh(server)));
            assertThat(code).as(err).isZero();
            assertThat(plan).contains("+GRUB_CMDLINE_LINUX_DEFAULT=\"quiet splash intel_iommu=on iommu=pt\"");
            JsonNode applied = new ObjectMapper().readTree(run(PW, concat(new String[] {"apply", "--device", "0000:01:00.0",
                "--yes", "--json"}, ssh(server))));
            assertThat(code).as(err).isZero();
            assertThat(applied.get("status").asText()).isEqualTo("applied");
            assertThat(applied.get("commands_run").toString()).contains("update-grub", "update-initramfs -u -k all");
            assertThat(err).as("the commands' output as they ran, on stderr (stdout is the JSON)")
                    .contains("running update-grub\n  | Generating grub configuration file ...\n  | done\n")
                    .contains("running update-initramfs -u -k all\n  | update-initramfs: Generating the initramfs\n");
            assertThat(Files.readString(root.resolve("etc/default/grub"))).contains("iommu=pt");
            assertThat(Files.readString(root.resolve("boot/grub/grub.cfg"))).contains("iommu=pt");
            JsonNode back = new ObjectMapper().readTree(run(PW, concat(new String[] {"rollback", "--json"}, ssh(server))));
            assertThat(code).as(err).isZero();
            assertThat(back.get("status").asText()).isEqualTo("rolled-back");
            assertThat(err).contains("restoring /etc/default/grub").contains("re-running update-grub");
        }
        assertThat(Files.readString(root.resolve("etc/default/grub"))).isEqualTo(grubBefore);
        assertThat(Files.readString(root.resolve("boot/grub/grub.cfg"))).isEqualTo(cfgBefore);
    }

    @Test
    void aFailedApplySaysWhereItLeftTheHostAlsoInJson() throws Exception {
        Path root = HostTrees.withBootTools(HostTrees.intelGrub(dir.resolve("remote")));
        HostTrees.toolSwitch(root, "fail", "update-initramfs", "always");
        try (SysrootSshServer server = new SysrootSshServer(root, dir.resolve("hk"))) {
            JsonNode failed = new ObjectMapper().readTree(run(PW, concat(new String[] {"apply", "--device", "0000:01:00.0",
                "--yes", "--json"}, ssh(server))));
            assertThat(code).isEqualTo(1);
            assertThat(failed.get("status").asText()).isEqualTo("failed");
            assertThat(failed.get("files_restored").toString()).contains("/etc/default/grub", "/etc/modules");
            assertThat(failed.get("commands_rerun").toString()).contains("update-grub");
            assertThat(failed.get("commands_failed").toString()).contains("update-initramfs -u -k all");
            assertThat(failed.get("journal_state").asText()).isEqualTo("rolling-back");
            assertThat(err).contains("update-initramfs: error: failing as the test asked").contains("gpuforge rollback");

            HostTrees.clearSwitches(root);
            JsonNode back = new ObjectMapper().readTree(run(PW, concat(new String[] {"rollback", "--json"}, ssh(server))));
            assertThat(code).as(err).isZero();
            assertThat(back.get("commands_run").toString()).isEqualTo("[\"update-initramfs -u -k all\"]");
        }
    }

    private static String[] concat(String[] a, String[] b) {
        String[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    @Test
    void aJournalGpuforgeDidNotWriteIsRefusedByRollbackAndVerify() throws Exception {
        Path root = HostTrees.intelGrub(dir.resolve("h"));
        Files.writeString(dir.resolve("victim"), "not GPUForge's\n");
        json("apply", "--sysroot", root.toString(), "--device", "0000:01:00.0", "--yes", "--json");
        Path journal = root.resolve("var/lib/gpuforge/journal.json");
        ObjectNode j = (ObjectNode) new ObjectMapper().readTree(journal.toFile());
        ((ObjectNode) j.get("files").get(0)).put("path", "/etc/../../victim");
        new ObjectMapper().writeValue(journal.toFile(), j);

        run("", "rollback", "--sysroot", root.toString());
        assertThat(code).isEqualTo(1);
        assertThat(err).contains("not one GPUForge wrote").contains("files[0].path '/etc/../../victim'")
                .contains("Nothing was changed");
        assertThat(dir.resolve("victim")).hasContent("not GPUForge's");
        run("", "verify", "--sysroot", root.toString());
        assertThat(code).isEqualTo(1);
        assertThat(err).contains("not one GPUForge wrote").contains("/etc/../../victim");
    }

    /** Changing this computer (as root, its real /etc) must be asked for by name, never be what happens by default. */
    @ParameterizedTest
    @CsvSource({"apply, --device, 0000:ff:1f.7", "rollback, --id, 20250101-120000-0123456789ab"})
    void changingAHostNeedsToBeToldWhichOne(String command, String option, String value) {
        String out = run("", command, option, value);
        assertThat(code).as("a usage error").isEqualTo(2);
        assertThat(err).contains("--local").contains("--ssh").contains("--sysroot");
        assertThat(out).isEmpty();
    }

    @Test
    void blockedPlansSayWhy() throws Exception {
        run("", "plan", "--sysroot", HostTrees.amdFirmwareOff(dir.resolve("a")).toString(), "--device", "0000:09:00.0");
        assertThat(code).isEqualTo(1);
        assertThat(err).contains("blocked by iommu.firmware");
    }
}
