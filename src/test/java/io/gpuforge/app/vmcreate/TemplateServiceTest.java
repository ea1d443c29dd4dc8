package io.gpuforge.app.vmcreate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpuforge.domain.vm.CloudConfigs;
import io.gpuforge.domain.vm.CloudInit;
import io.gpuforge.domain.vm.Firmware;
import io.gpuforge.domain.pci.PciAddress;
import io.gpuforge.domain.vm.TemplateFormatException;
import io.gpuforge.domain.vm.VmConfig;
import io.gpuforge.domain.vm.VmDetails;
import io.gpuforge.domain.vm.VmDisk;
import io.gpuforge.domain.vm.VmRef;
import io.gpuforge.domain.vm.VmTemplate;
import io.gpuforge.store.Database;
import io.gpuforge.store.TemplateJson;
import io.gpuforge.store.TemplateRepository;
import io.gpuforge.testing.Tools;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The built-in templates, user templates in SQLite, and the template file: export, import, refusals. */
class TemplateServiceTest {

    @TempDir
    Path dir;

    private Database db;
    private TemplateService templates;

    @BeforeEach
    void open() throws Exception {
        db = Database.open(dir.resolve("gpuforge.db"));
        templates = new TemplateService(new TemplateRepository(db, Clock.systemUTC()));
    }

    @AfterEach
    void close() {
        db.close();
    }

    @Test
    void theFiveBuiltInTemplatesAreThereWithWhatTheyPromise() {
        List<VmTemplate> b = templates.builtIn();
        assertThat(b).extracting(VmTemplate::name).containsExactly("Ubuntu 24.04 CUDA workstation",
                "Headless inference node", "Windows 11 GPU desktop", "Kubernetes GPU worker", "Slurm GPU worker");
        VmTemplate cuda = b.get(0);
        assertThat(cuda.cores()).isEqualTo(8);
        assertThat(cuda.memoryMiB()).isEqualTo(32 * 1024);
        assertThat(cuda.diskGiB()).isEqualTo(200);
        assertThat(cuda.uefi()).isTrue();
        assertThat(cuda.cpuType()).isEqualTo("host");
        assertThat(cuda.gpus()).isEqualTo(1);
        assertThat(cuda.userData().orElseThrow()).contains("ubuntu-drivers install").contains("nvidia-container-toolkit")
                .contains("nvidia-ctk runtime configure --runtime=docker").contains("qemu-guest-agent");
        VmTemplate win = b.get(2);
        assertThat(win.os()).isEqualTo(VmTemplate.Os.WINDOWS);
        assertThat(win.tpm()).isTrue();
        assertThat(win.uefi()).isTrue();
        assertThat(win.userData()).isEmpty();
        assertThat(win.isos()).contains("virtio-win.iso");
        assertThat(b.get(3).variables()).extracting(VmTemplate.Variable::name).contains("K8S_API", "K8S_TOKEN");
        assertThat(b.get(3).userData().orElseThrow()).contains("kubeadm").contains("--set-as-default");
        assertThat(b.get(4).userData().orElseThrow()).contains("gres.conf").contains("--conf-server");
        assertThat(b).allSatisfy(t -> assertThat(t.builtIn()).isTrue());
    }

    @Test
    void everyBuiltInUserDataAndWhatGpuforgeWritesFromItIsValidForTheRealCloudInit() throws Exception {
        Tools.require("cloud-init", "cloud-init");
        // the tool finds real mistakes: a wrong type is refused (so a pass below means something)
        assertThat(schema("#cloud-config\npackages: 5\n")).isNotEqualTo(0);
        Map<String, String> values = Map.of("K8S_API", "10.0.0.2:6443", "K8S_TOKEN", "abcdef.0123456789abcdef",
                "K8S_CA_HASH", "sha256:" + "ab".repeat(32), "SLURM_CONTROLLER", "slurmctl.lab", "MUNGE_KEY",
                "c2VjcmV0LWtleS1mb3ItbXVuZ2U=");
        for (VmTemplate t : templates.builtIn()) {
            if (t.userData().isEmpty()) {
                continue;
            }
            assertThat(schema(t.userData().get())).as(t.name() + " as shipped").isZero();
            CloudInit ci = new CloudInit("ada", PasswordHash.of("pa\"ss: #word"), List.of("ssh-ed25519 AAAAC3NzaC1lZDI1NTE5"
                    + "AAAAIGq8 ada@lab"), new CloudInit.Static("192.0.2.10/24", Optional.of("192.0.2.1")),
                    List.of("192.0.2.53"), Optional.of("lab"), t.renderUserData(values));
            String written = CloudConfigs.userData("cuda-01", ci);
            assertThat(schema(written)).as(t.name() + " as GPUForge writes it:\n" + written).isZero();
            assertThat(written).as("the password goes as its hash only").doesNotContain("pa\\\"ss", "plain_text_passwd")
                    .contains("passwd: \"" + ci.passwordHash().orElseThrow() + "\"");
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void noBuiltInTemplatePutsASecretVariableOnAGuestCommandLine() throws Exception {
        Map<String, String> values = Map.of("K8S_API", "10.0.0.2:6443", "K8S_TOKEN", "abcdef.0123456789abcdef",
                "K8S_CA_HASH", "sha256:" + "ab".repeat(32), "SLURM_CONTROLLER", "slurmctl.lab", "MUNGE_KEY",
                "c2VjcmV0LWtleS1mb3ItbXVuZ2U=");
        int secretsSeen = 0;
        for (VmTemplate t : templates.builtIn()) {
            Optional<String> rendered = t.renderUserData(values);
            if (rendered.isEmpty()) {
                continue;
            }
            Map<String, Object> doc = new org.yaml.snakeyaml.Yaml().load(rendered.get());
            for (VmTemplate.Variable v : t.variables()) {
                if (!v.secret()) {
                    continue;
                }
                String secret = values.get(v.name());
                secretsSeen++;
                for (String commands : List.of("runcmd", "bootcmd")) {
                    assertThat(String.valueOf(doc.getOrDefault(commands, List.of())))
                            .as(t.name() + ": " + v.name() + " on a command line the guest's ps shows").doesNotContain(secret);
                }
                List<Map<String, Object>> files = (List<Map<String, Object>>) doc.get("write_files");
                assertThat(files).as(t.name() + ": " + v.name() + " goes in a root- or owner-only file")
                        .filteredOn(f -> String.valueOf(f.get("content")).contains(secret))
                        .isNotEmpty()
                        .allSatisfy(f -> assertThat(String.valueOf(f.get("permissions"))).isIn("0400", "0600"));
            }
        }
        assertThat(secretsSeen).as("the K8S token and the MUNGE key").isEqualTo(2);
    }

    private int schema(String text) throws Exception {
        Path f = Files.createTempFile(dir, "user-data", ".yaml");
        Files.writeString(f, text);
        Process p = new ProcessBuilder("cloud-init", "schema", "-c", f.toString()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        if (p.exitValue() != 0) {
            System.getLogger("test").log(System.Logger.Level.INFO, out);
        }
        return p.exitValue();
    }

    @Test
    void userTemplatesAreMadeEditedDuplicatedAndDeletedAndBuiltInsStay() throws Exception {
        VmTemplate copy = templates.duplicate("ubuntu-cuda", "CUDA box for Ada");
        assertThat(copy.builtIn()).isFalse();
        assertThat(copy.id()).isEqualTo("cuda-box-for-ada");
        VmTemplate bigger = new VmTemplate(copy.id(), copy.name(), "more memory", false, copy.os(), 16, 65536,
                copy.diskGiB(), true, false, "host", "l26", 2, true, copy.image(), copy.userData(), List.of(), List.of());
        templates.save(bigger);
        // a new service over the same database sees it: it is stored, not cached
        TemplateService again = new TemplateService(new TemplateRepository(db, Clock.systemUTC()));
        assertThat(again.find("cuda box for ada").orElseThrow().memoryMiB()).isEqualTo(65536);
        assertThatThrownBy(() -> templates.duplicate("ubuntu-cuda", "Headless inference node"))
                .hasMessageContaining("exists already");
        assertThatThrownBy(() -> templates.delete("ubuntu-cuda")).hasMessageContaining("Built-in");
        assertThatThrownBy(() -> templates.save(templates.builtIn().get(0))).hasMessageContaining("duplicate it");
        templates.delete(copy.id());
        assertThat(templates.all()).hasSize(5);
    }

    @Test
    void anExportedFileImportsBackAndTakenNamesAreKeptApart() throws Exception {
        String file = templates.export(List.of("ubuntu-cuda", "k8s-gpu-worker"));
        assertThat(file).contains("\"format\" : \"gpuforge-vm-templates\"").contains("\"version\" : 2");
        TemplateService.Imported imported = templates.importJson(file);
        assertThat(imported.added()).extracting(VmTemplate::name).containsExactly(
                "Ubuntu 24.04 CUDA workstation (imported)", "Kubernetes GPU worker (imported)");
        assertThat(imported.added().get(1).variables()).hasSize(3);
        assertThat(imported.added().get(0).userData()).isEqualTo(templates.builtIn().get(0).userData());
        assertThat(templates.all()).hasSize(7);
    }

    @Test
    void brokenOldAndUnknownVersionFilesAreRefusedNamingTheFieldOrReadAndUpgraded() throws Exception {
        assertThatThrownBy(() -> templates.importJson("{\"format\": \"gpuforge-vm-templates\", \"version\": 2,"
                + " \"templates\": [")).isInstanceOf(TemplateFormatException.class).hasMessageContaining("not valid JSON")
                .hasMessageContaining("line 1");
        assertThatThrownBy(() -> templates.importJson("{\"format\": \"gpuforge-vm-templates\", \"version\": 3,"
                + " \"templates\": []}")).hasMessageContaining("version: 3 was written by a newer GPUForge");
        assertThatThrownBy(() -> templates.importJson("{\"templates\": []}"))
                .hasMessageContaining("format: the file is not a GPUForge template file");
        String good = templates.export(List.of("inference-node")).replace("Headless inference node", "Mine");
        assertThatThrownBy(() -> templates.importJson(good.replace("\"memoryMiB\" : 65536", "\"memoryMiB\" : \"lots\"")))
                .hasMessage("templates[0].memoryMiB: a whole number is needed, got \"lots\"");
        assertThatThrownBy(() -> templates.importJson(good.replace("\"cores\" : 16", "\"cores\" : 0")))
                .hasMessage("templates[0].cores: 1 to 512, got 0");
        assertThatThrownBy(() -> templates.importJson(good.replace("#cloud-config\\n", "#cloud-config\\nusers: []\\n")))
                .hasMessageContaining("The template 'Mine' sets 'users' in its user-data: GPUForge sets it");
        // nothing of a refused file was imported
        assertThat(templates.all()).hasSize(5);

        String v1 = "{\"format\": \"gpuforge-vm-templates\", \"version\": 1, \"templates\": [{\"id\": \"old-box\","
                + " \"name\": \"Old box\", \"os\": \"linux\", \"cores\": 4, \"memoryGiB\": 16, \"diskGiB\": 64,"
                + " \"firmware\": \"uefi\"}]}";
        VmTemplate old = templates.importJson(v1).added().get(0);
        assertThat(old.memoryMiB()).isEqualTo(16384);
        assertThat(old.uefi()).isTrue();
        assertThat(old.gpus()).isZero();
        assertThat(TemplateJson.readOne(TemplateJson.one(old), false)).isEqualTo(old);
        assertThatThrownBy(() -> templates.importJson(v1.replace("\"uefi\"}", "\"efi\"}")))
                .hasMessage("templates[0].firmware: \"uefi\" or \"bios\", got \"efi\"");
    }

    @Test
    void aSharedTemplateThatRedefinesGpuforgesKeysInAnyYamlSpellingIsRefusedNamingTheKey() throws Exception {
        String good = templates.export(List.of("inference-node")).replace("Headless inference node", "Shared");
        // what cloud-init reads as the key 'users', 'hostname', 'chpasswd'… however the text spells it
        Map<String, String> spellings = Map.of(
                "\\\"users\\\": [{name: eve, sudo: ALL}]\\n", "users",
                "'hostname': evil\\n", "hostname",
                "? ssh_authorized_keys\\n: [ssh-ed25519 AAAA eve]\\n", "ssh_authorized_keys",
                "base: &b {chpasswd: {expire: false}}\\n<<: *b\\n", "chpasswd",
                "\\\"pass\\\\u0077ord\\\": x\\n", "password",
                "system_info: {\\\"default_user\\\": {name: eve, plain_text_passwd: x}}\\n",
                "system_info.default_user");
        for (Map.Entry<String, String> e : spellings.entrySet()) {
            String file = good.replace("#cloud-config\\n", "#cloud-config\\n" + e.getKey());
            assertThatThrownBy(() -> templates.importJson(file)).as(e.getKey())
                    .isInstanceOf(TemplateService.Failure.class)
                    .hasMessageContaining("sets '" + e.getValue() + "' in its user-data");
        }
        // a key given twice is refused too: cloud-init would keep the last one
        assertThatThrownBy(() -> templates.importJson(good.replace("#cloud-config\\n",
                "#cloud-config\\nruncmd: [[true]]\\n"))).hasMessageContaining("the key 'runcmd' is given twice");
        assertThat(templates.all()).as("nothing was imported").hasSize(5);
        // the same in the editor's save
        VmTemplate t = templates.builtIn().get(1).copy("edited", "Edited");
        VmTemplate bad = new VmTemplate(t.id(), t.name(), "", false, t.os(), 4, 4096, 20, true, false, "host", "l26", 0,
                true, t.image(), Optional.of("#cloud-config\n\"hostname\": evil\n"), List.of(), List.of());
        assertThatThrownBy(() -> templates.save(bad)).hasMessageContaining("sets 'hostname'");
    }

    @Test
    void aTemplateFromAnExistingVmTakesItsSize() throws Exception {
        VmDetails d = new VmDetails(Optional.of("q35"),
                Firmware.UEFI, 1, 12, 48L << 30, List.of(new VmDisk("scsi0",
                "local-zfs:vm-101-disk-0", OptionalLong.of(120L << 30), false)), List.of(),
                List.of(PciAddress.parse("0000:01:00.0"), PciAddress.parse(
                "0000:01:00.1")), List.of("gpu-a"), Optional.of(false), Optional.of(true), Optional.of("l26"));
        VmTemplate t = templates.fromVm(new VmConfig(new VmRef("pve-4090", "101"),
                "d", d, Map.of(), ""), "Like train-01");
        assertThat(t.cores()).isEqualTo(12);
        assertThat(t.memoryMiB()).isEqualTo(48 * 1024);
        assertThat(t.diskGiB()).isEqualTo(120);
        assertThat(t.gpus()).isEqualTo(1);
        assertThat(templates.find("Like train-01")).isPresent();
        List<String> names = new ArrayList<>();
        templates.all().forEach(x -> names.add(x.name()));
        assertThat(names).contains("Like train-01");
    }
}
