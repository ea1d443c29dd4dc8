package io.gpuforge.share;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpuforge.domain.host.HostFacts;
import io.gpuforge.domain.passthrough.PassthroughPlan;
import io.gpuforge.domain.passthrough.PlanBlockedException;
import io.gpuforge.domain.share.ContainerDevice;
import io.gpuforge.domain.share.ContainerInfo;
import io.gpuforge.domain.share.ContainerUse;
import io.gpuforge.domain.share.GpuShare;
import io.gpuforge.host.apply.HostConfigurator;
import io.gpuforge.host.probe.HostProbe;
import io.gpuforge.host.LocalShell;
import io.gpuforge.testing.HostTrees;
import io.gpuforge.testing.SharedFixtures;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Containers configured the old way (real configs people posted, in {@code ../shared/fixtures/sharing}) and by
 * {@code devN}: which GPU each shares, and the old way migrated to devN as a host plan, applied and rolled back.
 */
class ContainerSharingTest {

    @TempDir
    Path dir;

    private static final String BASE = "arch: amd64\ncores: 4\nhostname: %s\nmemory: 4096\n"
            + "net0: name=eth0,bridge=vmbr0,hwaddr=BC:24:11:5E:7A:01,ip=dhcp,type=veth\nostype: debian\n"
            + "rootfs: local-lvm:vm-%d-disk-0,size=16G\nunprivileged: 1\n";

    private static String posted(String file) throws Exception {
        String text = new String(SharedFixtures.read("sharing/" + file), StandardCharsets.UTF_8);
        return text.lines().filter(l -> !l.startsWith("# ")).filter(l -> !l.isBlank())
                .collect(Collectors.joining("\n", "", "\n"));
    }

    /** The shared-GPU host with two containers' configurations: NVIDIA + dri + Coral the old way; Intel both ways. */
    private Path host() throws Exception {
        Path root = HostTrees.proxmoxSharedGpus(dir.resolve("root"));
        Files.writeString(root.resolve("proc/devices"), "Character devices:\n  1 mem\n  4 tty\n195 nvidia-frontend\n"
                + "226 drm\n506 nvidia-uvm\n509 nvidia-caps\n\nBlock devices:\n  8 sd\n");
        Files.createDirectories(root.resolve("dev/nvidia-caps"));
        Files.writeString(root.resolve("dev/nvidia-caps/nvidia-cap1"), "");
        Files.writeString(root.resolve("dev/nvidia-caps/nvidia-cap2"), "");
        Files.createDirectories(root.resolve("etc/pve/lxc"));
        Files.writeString(root.resolve("etc/pve/lxc/101.conf"), String.format(BASE, "frigate", 101)
                + posted("lxc_pve_raw_lines_nvidia_dri_coral_majors_506_509.conf"));
        Files.writeString(root.resolve("etc/pve/lxc/102.conf"), String.format(BASE, "jellyfin", 102)
                + posted("lxc_pve82_intel_dri_old_cgroup_vs_dev0_dev1_gid.conf"));
        return root;
    }

    private static ContainerInfo info(HostFacts f, int vmid, String name, String status) {
        LegacyLines.Parsed p = LegacyLines.parse(f.files().get("/etc/pve/lxc/" + vmid + ".conf"));
        return new ContainerInfo("pve-share", vmid, name, status, p.devices(), p.lxc(), Optional.empty());
    }

    @Test
    void theOldWaysLinesAreReadFromWhatPeoplePosted() throws Exception {
        LegacyLines.Parsed nvidia = LegacyLines.parse(posted("lxc_pve_raw_lines_nvidia_dri_coral_majors_506_509.conf"));
        assertThat(LegacyLines.gpuPaths(nvidia.lxc())).containsExactly("/dev/dri", "/dev/nvidia0", "/dev/nvidiactl",
                "/dev/nvidia-uvm", "/dev/nvidia-uvm-tools", "/dev/nvidia-caps");
        assertThat(LegacyLines.majors(nvidia.lxc())).containsExactly("195", "506", "509");
        LegacyLines.Parsed intel = LegacyLines.parse(posted("lxc_pve82_intel_dri_old_cgroup_vs_dev0_dev1_gid.conf"));
        assertThat(intel.devices().values()).extracting(ContainerDevice::value).containsExactly(
                "/dev/dri/card0,gid=44", "/dev/dri/renderD128,gid=104");
        assertThat(LegacyLines.majors(intel.lxc())).containsExactly("226");
    }

    @Test
    void eachGpuListsTheContainersThatShareItAndHow() throws Exception {
        HostFacts f = new HostProbe().probeLocal(Optional.of(host()));
        List<GpuShare> shares = ShareUsage.of("pve-share", Optional.of(f), List.of(info(f, 101, "frigate", "stopped"),
                info(f, 102, "jellyfin", "running")));
        Map<String, GpuShare> byGpu = shares.stream().collect(Collectors.toMap(s -> s.gpu().orElse("?"), s -> s));
        assertThat(byGpu.keySet()).containsExactlyInAnyOrder("0000:00:02.0", "0000:07:00.0");
        assertThat(byGpu.get("0000:07:00.0").containers()).singleElement().satisfies(u -> {
            assertThat(u.vmid()).isEqualTo(101);
            assertThat(u.legacy()).isTrue();
            assertThat(u.nodes()).containsExactly("/dev/nvidia0", "/dev/nvidiactl", "/dev/nvidia-uvm",
                    "/dev/nvidia-uvm-tools", "/dev/nvidia-caps");
        });
        assertThat(byGpu.get("0000:00:02.0").containers()).extracting(ContainerUse::vmid).containsExactly(101, 102);
        assertThat(byGpu.get("0000:00:02.0").containers().get(1).nodes()).containsExactly("/dev/dri/card0",
                "/dev/dri/renderD128");

        List<GpuShare> unlinked = ShareUsage.of("pve-share", Optional.empty(), List.of(info(f, 102, "jellyfin",
                "running")));
        assertThat(unlinked).singleElement().satisfies(s -> assertThat(s.gpu()).isEmpty());
    }

    /**
     * A posted configuration binds NVIDIA's nodes from a directory that is not /dev: the container still gets
     * /dev/nvidia0 (where the mount lands, and the cgroup rule's 195:0), so it is listed under the NVIDIA GPU.
     */
    @Test
    void theOldWaysLinesAreReadByWhereTheyLandWhereverTheirSourceLies() throws Exception {
        HostFacts f = new HostProbe().probeLocal(Optional.of(host()));
        LegacyLines.Parsed p = LegacyLines.parse("lxc.cgroup2.devices.allow: c 195:0 rwm\n"
                + "lxc.cgroup2.devices.allow: c 195:255 rwm\n"
                + "lxc.mount.entry: /some/dir/nvidia0 dev/nvidia0 none bind,optional,create=file\n"
                + "lxc.mount.entry: /srv/nv/nvidiactl /dev/nvidiactl none bind,optional,create=file\n"
                + "lxc.mount.entry: /srv/media mnt/media none bind,create=dir\n");
        assertThat(LegacyLines.gpuPaths(p.lxc())).containsExactly("/dev/nvidia0", "/dev/nvidiactl");
        assertThat(p.lxc().stream().filter(LegacyLines::isDeviceLine)).as("the media mount is no device line")
                .hasSize(4);
        ContainerInfo ct = new ContainerInfo("pve-share", 130, "cuda-elsewhere", "running", p.devices(), p.lxc(),
                Optional.empty());
        Map<String, GpuShare> byGpu = ShareUsage.of("pve-share", Optional.of(f), List.of(ct)).stream()
                .collect(Collectors.toMap(s -> s.gpu().orElse("?"), s -> s));
        assertThat(byGpu.get("0000:07:00.0").containers()).singleElement().satisfies(u -> {
            assertThat(u.vmid()).isEqualTo(130);
            assertThat(u.legacy()).isTrue();
            assertThat(u.nodes()).containsExactly("/dev/nvidia0", "/dev/nvidiactl");
        });
    }

    @Test
    void theOldWayIsMigratedToDevNKeepingTheCoralAndRolledBackByteForByte() throws Exception {
        Path root = host();
        HostFacts f = new HostProbe().probeLocal(Optional.of(root));
        String before = Files.readString(root.resolve("etc/pve/lxc/101.conf"));
        PassthroughPlan plan = LegacyMigration.plan(f, 101, false);
        String after = plan.edits().get(0).after();
        assertThat(after).doesNotContain("lxc.cgroup2.devices.allow: c 195", "c 506:", "c 509:",
                "lxc.mount.entry: /dev/nvidia0", "lxc.mount.entry: /dev/dri");
        assertThat(after).contains("lxc.mount.entry: /dev/apex_0 dev/apex_0 none bind,optional,create=file",
                "hostname: frigate");
        assertThat(plan.vmChanges().get(0).snippet()).isEqualTo("dev0: /dev/dri/card0,gid=44\n"
                + "dev1: /dev/dri/renderD128,gid=104\ndev2: /dev/nvidia0\ndev3: /dev/nvidiactl\ndev4: /dev/nvidia-uvm\n"
                + "dev5: /dev/nvidia-uvm-tools\ndev6: /dev/nvidia-caps/nvidia-cap1\ndev7: /dev/nvidia-caps/nvidia-cap2");
        assertThat(after).endsWith(plan.vmChanges().get(0).snippet() + "\n");

        HostConfigurator host = new HostConfigurator(new LocalShell(), Optional.of(root.toString()), false,
                Clock.systemUTC());
        host.apply(plan);
        assertThat(Files.readString(root.resolve("etc/pve/lxc/101.conf"))).isEqualTo(after);
        host.rollback(Optional.empty());
        assertThat(Files.readString(root.resolve("etc/pve/lxc/101.conf"))).isEqualTo(before);
    }

    @Test
    void bothWaysAtOnceKeepTheirDevNAndARunningContainerIsRefused() throws Exception {
        HostFacts f = new HostProbe().probeLocal(Optional.of(host()));
        PassthroughPlan plan = LegacyMigration.plan(f, 102, false);
        assertThat(plan.edits().get(0).after()).contains("dev0: /dev/dri/card0,gid=44", "dev1: /dev/dri/renderD128,gid=104")
                .doesNotContain("lxc.cgroup2", "lxc.mount.entry");
        assertThat(plan.vmChanges().get(0).snippet()).as("nothing added: devN already has both nodes").isEmpty();
        assertThatThrownBy(() -> LegacyMigration.plan(f, 102, true)).isInstanceOf(PlanBlockedException.class)
                .hasMessageContaining("pct stop 102");
        assertThatThrownBy(() -> LegacyMigration.plan(f, 199, false)).hasMessageContaining("/etc/pve/lxc/199.conf");
    }
}
