package io.gpuforge.hypervisor.proxmox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpuforge.demo.PveSimulator;
import io.gpuforge.demo.SimCluster;
import io.gpuforge.domain.vm.CloudImage;
import io.gpuforge.domain.vm.CloudInit;
import io.gpuforge.domain.SpecRefusedException;
import io.gpuforge.domain.vm.StorageInfo;
import io.gpuforge.domain.tasks.TaskListener;
import io.gpuforge.domain.tasks.TaskOutcome;
import io.gpuforge.domain.vm.VmConfig;
import io.gpuforge.domain.vm.VmField;
import io.gpuforge.domain.vm.VmOptions;
import io.gpuforge.domain.vm.VmRef;
import io.gpuforge.domain.vm.VmSpec;
import io.gpuforge.hypervisor.BackendTask;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A VM made from a template on the simulated Proxmox VE: image download, import, cloud-init, resize, refusals. */
class PveVmCreateTest {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final String KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGq8T9mJq3fNvH5c7kK3bA ada@lab";
    private static final CloudImage NOBLE = new CloudImage(
            "https://cloud-images.ubuntu.com/noble/current/noble-server-cloudimg-amd64.img",
            "noble-server-cloudimg-amd64.qcow2", Optional.empty());
    private PveSimulator sim;
    private ProxmoxHypervisor h;

    @BeforeEach
    void start() throws Exception {
        sim = new PveSimulator(SimCluster.demo());
        h = new ProxmoxHypervisor(sim.tokenClient(PveContract.load()), "demo", new ProxmoxHypervisor.Options(
                Duration.ofMillis(20), Duration.ofMillis(100), Optional.empty()));
    }

    @AfterEach
    void stop() {
        h.close();
        sim.close();
    }

    /** "s3cret pw" as SHA-512 crypt (openssl passwd -6 -salt saltsaltsaltsalt): PVE stores such a hash as it is. */
    private static final String HASH = "$6$saltsaltsaltsalt$6c59Hf9/IneTzpBbB5v6AHJ91NFk9ociroOy3W.3AbWTOVi6Rvsev"
            + "MIwftbe.6cJnmL5pInF1LnCat1v2KbDn0";

    private static VmSpec cuda(String name, String cpu, CloudInit.Ip ip) {
        CloudInit ci = new CloudInit("ada", Optional.of(HASH), List.of(KEY), ip, List.of("192.0.2.53"),
                Optional.of("lab.example"), Optional.empty());
        return new VmSpec(name, 8, 32768, Optional.empty(), "vmbr1", Optional.empty(), List.of(), true, true,
                new VmOptions(Optional.of("local-zfs"), OptionalInt.of(200), Optional.of(NOBLE), Optional.of(ci), cpu, false,
                        "l26", true, List.of()));
    }

    @Test
    void aTemplatesVmGetsItsImageDownloadedImportedGrownAndItsCloudInit() throws Exception {
        assertThat(h.storages("pve-4090")).extracting(StorageInfo::name).containsExactly("local", "local-zfs");
        assertThat(h.networks("pve-4090")).extracting(n -> n.name()).containsExactly("vmbr0", "vmbr1");
        List<String> lines = new ArrayList<>();
        TaskOutcome out = h.createVm("pve-4090", cuda("cuda-01", "host", new CloudInit.Static("192.0.2.10/24",
                Optional.of("192.0.2.1")))).await(lines::add, () -> false, WAIT);
        assertThat(out.ok()).as(String.join("\n", lines)).isTrue();
        assertThat(lines).anyMatch(l -> l.startsWith("[1/3] download https://cloud-images.ubuntu.com/"))
                .anyMatch(l -> l.startsWith("[2/3] create cuda-01")).anyMatch(l -> l.startsWith("[3/3] grow scsi0"));
        VmRef vm = out.created().orElseThrow();
        VmConfig cfg = h.readConfig(vm);
        assertThat(cfg.settings()).containsEntry("scsi0", "local-zfs:vm-" + vm.id() + "-disk-1,iothread=1,discard=on,size=200G")
                .containsEntry("cpu", "host").containsEntry("machine", "q35").containsEntry("bios", "ovmf")
                .containsEntry("scsihw", "virtio-scsi-single").containsEntry("net0", "virtio,bridge=vmbr1")
                .containsEntry("ciuser", "ada").containsEntry("cipassword", HASH).containsEntry("ipconfig0", "ip=192.0.2.10/24,gw=192.0.2.1")
                .containsEntry("nameserver", "192.0.2.53").containsEntry("searchdomain", "lab.example")
                .containsEntry("agent", "enabled=1").containsEntry("ide2", "local-zfs:vm-" + vm.id()
                        + "-cloudinit,media=cdrom");
        // PVE decodes sshkeys once more than the form: it arrives encoded, and decodes to the key
        assertThat(cfg.settings().get("sshkeys")).doesNotContain(" ");
        assertThat(URLDecoder.decode(cfg.settings().get("sshkeys"), StandardCharsets.UTF_8)).isEqualTo(KEY);
        assertThat(cfg.settings().get("efidisk0")).contains("efitype=4m");
        assertThat(h.volumes("pve-4090", "local", "import")).contains("local:import/noble-server-cloudimg-amd64.qcow2");

        // the image is there now: a second VM imports it without downloading again
        List<String> second = new ArrayList<>();
        assertThat(h.createVm("pve-4090", cuda("cuda-02", "x86-64-v3", new CloudInit.Dhcp()))
                .await(second::add, () -> false, WAIT).ok()).isTrue();
        assertThat(second).noneMatch(l -> l.contains("download")).anyMatch(l -> l.startsWith("[2/3] create cuda-02"));
    }

    @Test
    void aValuePveRefusesComesBackNamingTheWizardsField() {
        assertThatThrownBy(() -> h.createVm("pve-4090", cuda("cuda-03", "x86-64-v5", new CloudInit.Dhcp()))
                .await(TaskListener.none(), () -> false, WAIT)).isInstanceOfSatisfying(SpecRefusedException.class, e -> {
                    assertThat(e.fields()).containsOnlyKeys(VmField.CPU_TYPE);
                    assertThat(e.fields().get(VmField.CPU_TYPE)).contains("x86-64-v5").contains("custom-");
                });
        assertThatThrownBy(() -> h.createVm("pve-4090", cuda("cuda-04", "host", new CloudInit.Static("192.0.2.300/24",
                Optional.empty()))).await(TaskListener.none(), () -> false, WAIT))
                .isInstanceOfSatisfying(SpecRefusedException.class, e -> assertThat(e.fields()).containsKey(VmField.IP));
    }

    @Test
    void anIdTakenBetweenNextidAndTheCreateIsRetriedWithTheNextOne() throws Exception {
        sim.cluster().raceNextCreate();
        VmSpec plain = new VmSpec("plain-01", 2, 2048, Optional.empty(), "default", Optional.empty(), List.of(), false,
                true, new VmOptions(Optional.empty(), OptionalInt.of(16), Optional.empty(), Optional.empty(), "host",
                false, "l26", false, List.of()));
        TaskOutcome out = h.createVm("pve-4090", plain).await(TaskListener.none(), () -> false, WAIT);
        assertThat(out.ok()).isTrue();
        assertThat(out.created().orElseThrow().id()).isEqualTo("102");
        assertThat(h.readConfig(out.created().get()).settings()).containsEntry("name", "plain-01")
                .containsEntry("scsi0", "local-zfs:vm-102-disk-0,iothread=1,discard=on,size=16G");
        assertThat(h.readConfig(new VmRef("pve-4090", "100")).settings()).containsEntry("name", "someone-else");
    }

    @Test
    void aCancelledCreateStopsThePveTaskAndNamesTheIdItHadTaken() throws Exception {
        sim.cluster().taskMillis(60_000);
        BackendTask t = h.createVm("pve-4090", cuda("cuda-05", "host", new CloudInit.Dhcp()));
        List<String> lines = new ArrayList<>();
        TaskOutcome out = t.await(lines::add, () -> !lines.isEmpty(), WAIT);
        assertThat(out.ok()).isFalse();
        assertThat(out.status()).isEqualTo("cancelled");
        assertThat(out.created()).isEmpty();
        assertThat(lines).noneMatch(l -> l.startsWith("[2/3]"));
    }
}
