package io.gpuforge.hypervisor.proxmox;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.domain.vm.Firmware;
import io.gpuforge.domain.pci.PciAddress;
import io.gpuforge.domain.vm.VmDetails;
import io.gpuforge.domain.vm.VmDisk;
import io.gpuforge.domain.vm.VmNic;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/**
 * PVE VM configurations as {@code qm config} prints them (written after the PVE admin guide's qm.conf examples and
 * configurations posted in the Proxmox forum's passthrough threads), read into the product's VmDetails.
 */
class PveConfigParserTest {

    /** A Windows 11 VM with a raw GPU (all functions, primary), a mapped one, TPM, EFI disk and an ISO. */
    private static final String WIN11 = String.join("\n",
            "agent: 1",
            "balloon: 0",
            "bios: ovmf",
            "boot: order=scsi0;ide2;net0",
            "cores: 8",
            "cpu: host",
            "efidisk0: local-lvm:vm-101-disk-1,efitype=4m,pre-enrolled-keys=1,size=4M",
            "hostpci0: 0000:01:00,pcie=1,x-vga=1",
            "hostpci1: mapping=gpu-a,pcie=1",
            "ide2: local:iso/x.iso,media=cdrom",
            "machine: pc-q35-8.1",
            "memory: 32768",
            "meta: creation-qemu=8.1.5,ctime=1712345678",
            "name: win11-gaming",
            "net0: virtio=BC:24:11:2F:3A:4B,bridge=vmbr0,firewall=1",
            "numa: 0",
            "ostype: win11",
            "scsi0: local-lvm:vm-101-disk-0,iothread=1,size=32G",
            "scsihw: virtio-scsi-single",
            "smbios1: uuid=6f1e6d4c-2b1a-4c55-9d0e-3f3b1c2d4e5f",
            "sockets: 1",
            "tpmstate0: local-lvm:vm-101-disk-2,size=4M,version=v2.0",
            "vmgenid: 0c1d2e3f-4a5b-6c7d-8e9f-0a1b2c3d4e5f");

    /** Odd but real forms: PVE 8 memory, machine options, raw ids without domain, several NIC models, unused disks. */
    private static final String ODD = String.join("\n",
            "agent: enabled=1,fstrim_cloned_disks=1",
            "balloon: 2048",
            "bios: seabios",
            "cores: 4",
            "hostpci0: host=02:00.0;02:00.1,pcie=1",
            "machine: q35,viommu=intel",
            "memory: current=4096",
            "name: llm-box",
            "net0: virtio,bridge=vmbr0",
            "net1: e1000=aa:bb:cc:dd:ee:ff,bridge=vmbr1,tag=20",
            "net2: model=vmxnet3,macaddr=BC:24:11:00:00:02",
            "net3: virtio=BC:24:11:00:00:03",
            "sata0: none,media=cdrom",
            "scsi10: local-zfs:vm-102-disk-2,size=1.5T",
            "scsi2: local-zfs:vm-102-disk-1,discard=on,size=528K",
            "sockets: 2",
            "unused0: local-zfs:vm-102-disk-3",
            "virtio0: file=local-zfs:vm-102-disk-0,size=100G",
            "ide2: local-zfs:vm-102-cloudinit,media=cdrom,size=4M");

    private static Map<String, String> config(String text) {
        Map<String, String> out = new LinkedHashMap<>();
        for (String line : text.split("\n")) {
            int colon = line.indexOf(": ");
            out.put(line.substring(0, colon), line.substring(colon + 2));
        }
        return out;
    }

    /** pve1 lists 0000:01:00 with VGA + audio; gpu-a maps 0000:02:00.0 there. */
    private static final PveConfigParser.Resolvers NODE = new PveConfigParser.Resolvers(
            m -> m.equals("gpu-a") ? List.of("0000:02:00.0") : List.of(),
            a -> a.bus() == 1 ? List.of(a, new PciAddress(0, 1, 0, 1)) : List.of());

    @Test
    void aPassthroughVmWithRawAndMappedGpusTpmAndEfiDisk() {
        VmDetails d = PveConfigParser.details(config(WIN11), NODE);
        assertThat(d.machine()).contains("pc-q35-8.1");
        assertThat(d.isQ35()).isTrue();
        assertThat(d.firmware()).isEqualTo(Firmware.UEFI);
        assertThat(d.sockets()).isEqualTo(1);
        assertThat(d.cores()).isEqualTo(8);
        assertThat(d.vcpus()).isEqualTo(8);
        assertThat(d.memoryBytes()).isEqualTo(32768L << 20);
        assertThat(d.disks()).containsExactly(
                new VmDisk("efidisk0", "local-lvm:vm-101-disk-1", OptionalLong.of(4L << 20), false),
                new VmDisk("ide2", "local:iso/x.iso", OptionalLong.empty(), true),
                new VmDisk("scsi0", "local-lvm:vm-101-disk-0", OptionalLong.of(32L << 30), false),
                new VmDisk("tpmstate0", "local-lvm:vm-101-disk-2", OptionalLong.of(4L << 20), false));
        assertThat(d.nics()).containsExactly(new VmNic("net0", "virtio", "BC:24:11:2F:3A:4B", "vmbr0"));
        assertThat(d.hostDevices()).as("the raw slot is every function of it; the mapping resolves on the node")
                .containsExactly(PciAddress.parse("0000:01:00.0"), PciAddress.parse("0000:01:00.1"),
                        PciAddress.parse("0000:02:00.0"));
        assertThat(d.pciMappings()).containsExactly("gpu-a");
        assertThat(d.balloon()).contains(false);
        assertThat(d.guestAgent()).contains(true);
        assertThat(d.osType()).contains("win11");
        List<PveConfigParser.HostPci> pcis = PveConfigParser.hostPcis(config(WIN11));
        assertThat(pcis).extracting(PveConfigParser.HostPci::primaryGpu).containsExactly(true, false);
        assertThat(pcis).extracting(PveConfigParser.HostPci::pcie).containsExactly(true, true);
    }

    @Test
    void oddButValidForms() {
        VmDetails d = PveConfigParser.details(config(ODD), NODE);
        assertThat(d.machine()).contains("q35");
        assertThat(d.firmware()).isEqualTo(Firmware.BIOS);
        assertThat(d.vcpus()).isEqualTo(8);
        assertThat(d.memoryBytes()).as("PVE 8's memory: current=4096").isEqualTo(4096L << 20);
        assertThat(d.balloon()).as("a balloon target is ballooning on").contains(true);
        assertThat(d.guestAgent()).contains(true);
        assertThat(d.hostDevices()).as("';'-separated ids without a domain")
                .containsExactly(PciAddress.parse("0000:02:00.0"), PciAddress.parse("0000:02:00.1"));
        assertThat(d.pciMappings()).isEmpty();
        assertThat(d.disks()).extracting(VmDisk::slot).as("by bus, then by number; unused0 is no disk")
                .containsExactly("ide2", "sata0", "scsi2", "scsi10", "virtio0");
        assertThat(d.disks()).filteredOn(VmDisk::cdrom).extracting(VmDisk::source)
                .containsExactly("local-zfs:vm-102-cloudinit", "none");
        assertThat(d.disks()).filteredOn(x -> x.slot().equals("scsi10")).singleElement()
                .satisfies(x -> assertThat(x.sizeBytes()).hasValue((long) (1.5 * (1L << 40))));
        assertThat(d.disks()).filteredOn(x -> x.slot().equals("scsi2")).singleElement()
                .satisfies(x -> assertThat(x.sizeBytes()).hasValue(528L << 10));
        assertThat(d.disks()).filteredOn(x -> x.slot().equals("virtio0")).singleElement()
                .satisfies(x -> assertThat(x.source()).isEqualTo("local-zfs:vm-102-disk-0"));
        assertThat(d.nics()).containsExactly(
                new VmNic("net0", "virtio", "", "vmbr0"),
                new VmNic("net1", "e1000", "AA:BB:CC:DD:EE:FF", "vmbr1"),
                new VmNic("net2", "vmxnet3", "BC:24:11:00:00:02", "user-mode"),
                new VmNic("net3", "virtio", "BC:24:11:00:00:03", "user-mode"));
    }

    @Test
    void whatTheConfigurationLeavesOutIsPvesDefault() {
        VmDetails d = PveConfigParser.details(Map.of("name", "bare"), PveConfigParser.Resolvers.none());
        assertThat(d.machine()).as("i440fx by default, but the VM does not say").isEmpty();
        assertThat(d.isQ35()).isFalse();
        assertThat(d.firmware()).isEqualTo(Firmware.BIOS);
        assertThat(d.vcpus()).isEqualTo(1);
        assertThat(d.memoryBytes()).isEqualTo(512L << 20);
        assertThat(d.disks()).isEmpty();
        assertThat(d.balloon()).isEmpty();
        assertThat(d.guestAgent()).isEmpty();
        assertThat(d.osType()).isEmpty();
        assertThat(PveConfigParser.details(Map.of("bios", "coreboot"), PveConfigParser.Resolvers.none()).firmware())
                .isEqualTo(Firmware.UNKNOWN);
        assertThat(PveConfigParser.details(Map.of("agent", "0"), PveConfigParser.Resolvers.none()).guestAgent())
                .contains(false);
    }

    @Test
    void aSlotWhoseFunctionsAreUnknownStandsForFunctionZeroAndAnUnknownMappingForNothing() {
        VmDetails d = PveConfigParser.details(Map.of("hostpci0", "0000:81:00,pcie=1", "hostpci1", "mapping=gone,pcie=1"),
                PveConfigParser.Resolvers.none());
        assertThat(d.hostDevices()).containsExactly(PciAddress.parse("0000:81:00.0"));
        assertThat(d.pciMappings()).containsExactly("gone");
    }

    @Test
    void theDocumentIsPvesKeyValueLinesWithTheDescriptionAsComments() {
        Map<String, String> cfg = config(WIN11);
        cfg.put("description", "GPU box\nowner: ada");
        cfg.put("digest", "0123abcd");
        String doc = PveConfigParser.document(cfg);
        assertThat(doc).startsWith("#GPU box\n#owner: ada\nagent: 1\nballoon: 0\n");
        assertThat(doc).contains("\nhostpci0: 0000:01:00,pcie=1,x-vga=1\n").doesNotContain("digest")
                .endsWith("vmgenid: 0c1d2e3f-4a5b-6c7d-8e9f-0a1b2c3d4e5f\n");
        assertThat(doc.lines()).as("two comment lines, one line per key but digest and description")
                .hasSize(cfg.size());
    }

    @Test
    void sizesAsPveWritesThem() {
        assertThat(PveConfigParser.size("32G")).hasValue(32L << 30);
        assertThat(PveConfigParser.size("4M")).hasValue(4L << 20);
        assertThat(PveConfigParser.size("528K")).hasValue(528L << 10);
        assertThat(PveConfigParser.size("1T")).hasValue(1L << 40);
        assertThat(PveConfigParser.size("123456")).hasValue(123456);
        assertThat(PveConfigParser.size("big")).isEmpty();
        assertThat(PveConfigParser.size(null)).isEmpty();
    }
}
