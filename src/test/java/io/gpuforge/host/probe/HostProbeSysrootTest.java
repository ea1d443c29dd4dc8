package io.gpuforge.host.probe;

import io.gpuforge.host.LocalShell;
import io.gpuforge.host.ProbeException;
import io.gpuforge.host.RemoteFiles;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import io.gpuforge.domain.host.BootSetup;
import io.gpuforge.domain.pci.GpuPlacement;
import io.gpuforge.domain.host.HostFacts;
import io.gpuforge.domain.pci.IommuState;
import io.gpuforge.domain.pci.Isolation;
import io.gpuforge.domain.pci.PciAddress;
import io.gpuforge.domain.pci.PciDevice;
import io.gpuforge.testing.HostTrees;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The real probe script (run by /bin/sh) over sysroot trees of six kinds of host. */
class HostProbeSysrootTest {

    @TempDir
    Path dir;

    private HostFacts probe(Path root) throws ProbeException {
        return new HostProbe().probeLocal(Optional.of(root));
    }

    private static PciAddress a(String s) {
        return PciAddress.parse(s);
    }

    @Test
    void intelGrubHost() throws Exception {
        HostFacts f = probe(HostTrees.intelGrub(dir));
        assertThat(f.source()).startsWith("sysroot:");
        assertThat(f.summary().hostname()).isEqualTo("z790");
        assertThat(f.summary().kernel()).contains("5.19.0-41-generic");
        assertThat(f.summary().cpuVendor()).contains("Intel");
        assertThat(f.summary().logicalCpus()).isEqualTo(8);
        assertThat(f.cmdline()).hasValueSatisfying(c -> assertThat(c).contains("intel_iommu=on"));
        assertThat(f.boot().mode()).isEqualTo(BootSetup.Mode.UEFI);
        assertThat(f.boot().loader()).isEqualTo(BootSetup.Loader.GRUB);
        assertThat(f.boot().grubCmdline()).contains("quiet splash intel_iommu=on");
        assertThat(f.boot().grubCmdlineLinux()).contains("");
        assertThat(f.acpiDmar()).contains(true);
        assertThat(f.acpiIvrs()).contains(false);
        assertThat(f.iommu()).isEqualTo(IommuState.ENABLED);
        assertThat(f.iommuReason()).isEqualTo(HostFacts.IommuReason.ACTIVE);
        assertThat(f.interruptRemapping()).contains(true);
        assertThat(f.dmesg()).anyMatch(l -> l.contains("DMAR: IOMMU enabled"));
        assertThat(f.initramfs().tool()).isEqualTo(HostFacts.Initramfs.Tool.INITRAMFS_TOOLS);
        assertThat(f.managementDevices()).containsExactly(a("0000:06:00.0"));
        assertThat(f.rootDevices()).containsExactly(a("0000:05:00.0"));
        assertThat(f.proxmox()).isFalse();
        assertThat(f.loadedModules()).contains("vfio_pci", "kvm_intel");

        PciDevice gpu = f.pci().device(a("0000:01:00.0")).orElseThrow();
        assertThat(gpu.vendorId()).isEqualTo("10de");
        assertThat(gpu.deviceId()).isEqualTo("2786");
        assertThat(gpu.classCode()).isEqualTo("0300");
        assertThat(gpu.driver()).contains("nvidia");
        assertThat(gpu.name()).contains("NVIDIA Corporation AD104 [GeForce RTX 4070]");
        assertThat(gpu.iommuGroup()).hasValue(11);
        assertThat(gpu.details().barSizes().get(0)).isEqualTo(16L << 20);
        assertThat(gpu.details().resetMethods()).containsExactly("bus");
        assertThat(gpu.details().driverOverride()).isEmpty();
        assertThat(f.pci().device(a("0000:05:00.0")).orElseThrow().name()).as("not in the pci.ids excerpt").isEmpty();

        assertThat(f.pci().groups()).extracting(g -> g.id()).containsExactly(0, 1, 11, 13, 14, 15);
        assertThat(f.pci().gpus()).extracting(GpuPlacement::address, GpuPlacement::isolation)
                .containsExactly(tuple(a("0000:01:00.0"), Isolation.ISOLATED), tuple(a("0000:04:00.0"), Isolation.ISOLATED));
        assertThat(f.pci().gpus().get(0).functions()).containsExactly(a("0000:01:00.0"), a("0000:01:00.1"));
    }

    @Test
    void proxmoxSystemdBootOnZfs() throws Exception {
        HostFacts f = probe(HostTrees.proxmoxSystemdBoot(dir));
        assertThat(f.proxmox()).isTrue();
        assertThat(f.boot().loader()).isEqualTo(BootSetup.Loader.SYSTEMD_BOOT);
        assertThat(f.boot().loaderDetail()).contains("proxmox-boot-tool (systemd-boot)");
        assertThat(f.boot().kernelCmdlineFile()).contains("root=ZFS=rpool/ROOT/pve-1 boot=zfs");
        assertThat(f.acpiIvrs()).contains(true);
        assertThat(f.summary().cpuVendor()).contains("AMD");
        assertThat(f.interruptRemapping()).contains(true);
        assertThat(f.rootDevices()).containsExactly(a("0000:01:00.0"), a("0000:02:00.0"));
        assertThat(f.managementDevices()).as("vmbr0 → eno1 → its NIC").containsExactly(a("0000:41:00.0"));
        assertThat(f.pci().gpus()).hasSize(4).allMatch(g -> g.isolation() == Isolation.ISOLATED);
        assertThat(f.pci().devices()).filteredOn(PciDevice::isGpu).allMatch(d -> d.driver().equals(Optional.of("vfio-pci")));
        assertThat(f.modprobe().vfioIds()).containsExactly("10de:0fc6", "10de:0e1b");
        assertThat(f.modprobe().softdeps()).containsKeys("nouveau", "nvidia", "nvidiafb", "nvidia_drm", "drm");
        assertThat(f.modprobe().softdeps().get("nvidia")).containsExactly("vfio_pci");
        assertThat(f.modprobe().modulesLoaded()).containsExactly("vfio", "vfio_iommu_type1", "vfio_pci", "vfio_virqfd");
        assertThat(f.modprobe().problems()).singleElement()
                .satisfies(p -> assertThat(p.reason()).contains("no wildcards"))
                .satisfies(p -> assertThat(p.text()).isEqualTo("blacklist nvidia*"));
        assertThat(f.modprobe().blacklisted()).contains("nouveau", "snd_hda_intel");
    }

    @Test
    void amdHostWithIommuOffInFirmware() throws Exception {
        HostFacts f = probe(HostTrees.amdFirmwareOff(dir));
        assertThat(f.iommu()).isEqualTo(IommuState.DISABLED);
        assertThat(f.iommuReason()).isEqualTo(HostFacts.IommuReason.FIRMWARE);
        assertThat(f.acpiIvrs()).contains(false);
        assertThat(f.pci().groups()).isEmpty();
        assertThat(f.pci().gpus()).isEmpty();
        assertThat(f.pci().devices()).hasSize(3).allMatch(d -> d.iommuGroup().isEmpty());
        assertThat(f.initramfs().tool()).isEqualTo(HostFacts.Initramfs.Tool.MKINITCPIO);
        assertThat(f.interruptRemapping()).isEmpty();
        assertThat(f.unknowns()).anyMatch(u -> u.startsWith("kernel log"));
    }

    @Test
    void iommuOnWithoutInterruptRemapping() throws Exception {
        HostFacts f = probe(HostTrees.noInterruptRemapping(dir));
        assertThat(f.iommu()).isEqualTo(IommuState.ENABLED);
        assertThat(f.interruptRemapping()).contains(false);
        assertThat(f.boot().mode()).isEqualTo(BootSetup.Mode.LEGACY);
        assertThat(f.boot().grubCmdlineLinux()).contains("rhgb quiet intel_iommu=on");
        assertThat(f.initramfs().tool()).isEqualTo(HostFacts.Initramfs.Tool.DRACUT);
        assertThat(f.pci().device(a("0000:03:00.0")).orElseThrow().details().barSizes().get(0)).isEqualTo(128L << 20);
    }

    @Test
    void gpuThatIsTheBootConsole() throws Exception {
        HostFacts f = probe(HostTrees.bootVga(dir));
        PciDevice gpu = f.pci().device(a("0000:01:00.0")).orElseThrow();
        assertThat(gpu.details().bootVga()).contains(true);
        assertThat(gpu.details().resizableBar()).isTrue();
        assertThat(f.pci().device(a("0000:01:00.1")).orElseThrow().details().bootVga()).isEmpty();
        GpuPlacement p = f.pci().gpus().get(0);
        assertThat(p.isolation()).isEqualTo(Isolation.SHARES_WITH_BRIDGES);
        assertThat(p.sharedWith()).containsExactly(a("0000:00:01.0"));
    }

    @Test
    void twoIdenticalGpusAreTwoPlacements() throws Exception {
        HostFacts f = probe(HostTrees.twoIdenticalGpus(dir));
        assertThat(f.pci().gpus()).extracting(GpuPlacement::group).containsExactly(14, 27);
        assertThat(f.pci().devices()).filteredOn(PciDevice::isGpu)
                .extracting(d -> d.vendorId() + ":" + d.deviceId()).containsOnly("10de:2204");
        assertThat(f.pci().device(a("0000:01:00.0")).orElseThrow().driver()).contains("nvidia");
        assertThat(f.pci().device(a("0000:0b:00.0")).orElseThrow().driver()).contains("vfio-pci");
    }

    @Test
    void theLocalMachineCanBeProbed() throws Exception {
        HostFacts f = new HostProbe().probeLocal(Optional.empty());
        assertThat(f.source()).isEqualTo("local");
        assertThat(f.summary().kernel()).isPresent();
        assertThat(f.pci().devices()).isNotEmpty();
    }

    @Test
    void aMissingSysrootIsAClearError() {
        assertThatThrownBy(() -> probe(dir.resolve("nope"))).isInstanceOf(ProbeException.class)
                .hasMessageContaining("is not a directory");
    }

    @Test
    void truncatedOrForeignProbeOutputIsRejected() throws Exception {
        String full = new String(new LocalShell().run("sh -s -- " + RemoteFiles.q(HostTrees.intelGrub(dir).toString()),
                HostProbe.script().getBytes(StandardCharsets.UTF_8), Duration.ofSeconds(30)).stdout(), StandardCharsets.UTF_8);
        assertThat(HostProbe.fromOutput(full, "saved").pci().devices()).hasSize(8);
        assertThatThrownBy(() -> HostProbe.fromOutput(full.substring(0, full.length() / 2), "cut"))
                .isInstanceOf(ProbeException.class).hasMessageContaining("truncated");
        assertThatThrownBy(() -> HostProbe.fromOutput("<html>502 Bad Gateway</html>", "x"))
                .hasMessageContaining("Not GPUForge probe output");
        assertThatThrownBy(() -> HostProbe.fromOutput("@@gpuforge-probe 1\n@@dev 0000:01:00.0\nvendor\n@@end\n@@done\n", "x"))
                .hasMessageContaining("line 3 is malformed");
        assertThatThrownBy(() -> HostProbe.fromOutput("@@gpuforge-probe 1\n\0\0", "x")).hasMessageContaining("binary");
    }
}
