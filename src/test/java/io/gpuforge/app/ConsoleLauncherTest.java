package io.gpuforge.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpuforge.domain.ConnectionInfo;
import io.gpuforge.domain.VmRef;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A VM's console: the cluster's noVNC URL in the browser, virt-viewer for libvirt; real processes started. */
class ConsoleLauncherTest {

    @TempDir
    Path dir;

    private static final ConnectionInfo PVE = new ConnectionInfo(1, "lab", ConnectionInfo.Kind.PROXMOX,
            "https://pve1.lab:8006", "root@pam!gf", Optional.empty());
    private static final ConnectionInfo KVM = new ConnectionInfo(2, "kvm", ConnectionInfo.Kind.LIBVIRT,
            "qemu+ssh://root@kvm1/system", "", Optional.empty());

    @Test
    void aProxmoxVmsConsoleIsTheClustersNoVncPage() {
        assertThat(ConsoleLauncher.noVncUrl("https://pve1.lab:8006", new VmRef("pve-4090", "101"), "train 01"))
                .hasToString("https://pve1.lab:8006/?console=kvm&novnc=1&vmid=101&vmname=train+01&node=pve-4090"
                        + "&resize=off&cmd=");
        assertThat(ConsoleLauncher.noVncUrl("https://10.0.0.5", new VmRef("n1", "200"), "x").toString())
                .startsWith("https://10.0.0.5:8006/?");
        assertThatThrownBy(() -> ConsoleLauncher.noVncUrl("not a url", new VmRef("n", "100"), "x"))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theBrowserOpenerAndVirtViewerAreRunWithTheRightArguments() throws Exception {
        Path args = dir.resolve("args");
        Path fake = script("fake-tool", "echo \"$0 $*\" >> '" + args + "'\n");
        ConsoleLauncher launcher = new ConsoleLauncher(OsFamily.LINUX, fake.toString(), fake.toString(), Optional::empty);
        ConsoleLauncher.Launch web = launcher.open(PVE, new VmRef("pve-4090", "101"), "train-01");
        assertThat(web.url()).isPresent();
        ConsoleLauncher.Launch viewer = launcher.open(KVM, new VmRef("kvm1", "win10-gpu"), "win10-gpu");
        assertThat(viewer.command()).containsExactly(fake.toString(), "--connect", "qemu+ssh://root@kvm1/system",
                "win10-gpu");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while ((!Files.exists(args) || Files.readAllLines(args).size() < 2) && System.nanoTime() < deadline) {
            TimeUnit.MILLISECONDS.sleep(20);
        }
        assertThat(Files.readAllLines(args)).containsExactly(
                fake + " " + web.url().get(), fake + " --connect qemu+ssh://root@kvm1/system win10-gpu");
    }

    @Test
    void aMissingToolSaysWhatToInstall() {
        ConsoleLauncher launcher = new ConsoleLauncher(OsFamily.LINUX, "xdg-open", dir.resolve("no-virt-viewer").toString(),
                Optional::empty);
        assertThatThrownBy(() -> launcher.open(KVM, new VmRef("kvm1", "win10-gpu"), "win10-gpu"))
                .isInstanceOf(IOException.class).hasMessageContaining("apt-get install virt-viewer");
    }

    @Test
    void anOpenerThatFailsIsReportedWithTheUrlToOpenByHand() throws Exception {
        Path failing = script("failing-opener", "exit 3\n");
        ConsoleLauncher launcher = new ConsoleLauncher(OsFamily.LINUX, failing.toString(), "virt-viewer", Optional::empty);
        assertThatThrownBy(() -> launcher.open(PVE, new VmRef("pve-4090", "101"), "train-01"))
                .isInstanceOf(IOException.class).hasMessageContaining("exited with 3")
                .hasMessageContaining("https://pve1.lab:8006/?console=kvm");
    }

    @Test
    void theDemoLabsConsoleIsOnTheSimulatorsAddressAndAnSshHostHasNone() {
        ConsoleLauncher launcher = new ConsoleLauncher(OsFamily.LINUX, () -> Optional.of("https://127.0.0.1:41234"),
                ProgramStarter.direct());
        ConnectionInfo demo = new ConnectionInfo(3, "Demo", ConnectionInfo.Kind.DEMO, "simulated", "", Optional.empty());
        assertThat(launcher.plan(demo, new VmRef("pve-4090", "101"), "train-01").url().orElseThrow().toString())
                .startsWith("https://127.0.0.1:41234/?console=kvm");
        ConnectionInfo ssh = new ConnectionInfo(4, "h", ConnectionInfo.Kind.SSH, "h", "root", Optional.empty());
        assertThatThrownBy(() -> launcher.plan(ssh, new VmRef("h", "x"), "x")).isInstanceOf(IllegalArgumentException.class);
        assertThat(new ConsoleLauncher(OsFamily.WINDOWS, Optional::empty, ProgramStarter.direct())
                .plan(PVE, new VmRef("n", "101"), "v").command())
                .startsWith("rundll32", "url.dll,FileProtocolHandler");
    }

    private Path script(String name, String body) throws IOException {
        Path p = dir.resolve(name);
        Files.writeString(p, "#!/bin/sh\n" + body);
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwx------"));
        return p;
    }

}
