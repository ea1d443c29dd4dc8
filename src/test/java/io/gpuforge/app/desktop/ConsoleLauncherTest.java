package io.gpuforge.app.desktop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpuforge.app.AppContext;
import io.gpuforge.app.host.OsFamily;
import io.gpuforge.app.settings.LanguageChoice;
import io.gpuforge.app.settings.ThemeChoice;
import io.gpuforge.domain.BackendException;
import io.gpuforge.domain.connections.ConnectionInfo;
import io.gpuforge.domain.vm.VmRef;
import io.gpuforge.testing.Eventually;
import io.gpuforge.testing.TestContexts;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;


/**
 * A VM's console, the one launcher of the window, the wizard and the CLI: the cluster's noVNC URL in the browser
 * (values encoded, https only), virt-viewer for libvirt with the domain's UUID after {@code --}; real processes
 * started, libvirt's test driver for the domains' configurations.
 */
class ConsoleLauncherTest {

    @TempDir
    Path dir;

    private static final ConnectionInfo PVE = new ConnectionInfo(1, "lab", ConnectionInfo.Kind.PROXMOX,
            "https://pve1.lab:8006", "root@pam!gf", Optional.empty());
    private static final String UUID_OF_WIN10 = "6695eb01-f6a4-8304-79aa-97f2502e193f";
    private static final ConsoleLauncher.Uuids NO_UUIDS = (c, vm) -> {
        throw new AssertionError("no libvirt domain here");
    };
    private static final ConnectionInfo KVM = new ConnectionInfo(2, "kvm", ConnectionInfo.Kind.LIBVIRT,
            "qemu+ssh://root@kvm1/system", "", Optional.empty());

    @Test
    void aProxmoxVmsConsoleIsTheClustersNoVncPageWithEveryValueEncoded() {
        assertThat(ConsoleLauncher.noVncUrl("https://pve1.lab:8006", new VmRef("pve-4090", "101"), "a&vmid=999#x"))
                .as("a name cannot add or change a parameter").hasToString("https://pve1.lab:8006/?console=kvm&novnc=1"
                        + "&vmid=101&vmname=a%26vmid%3D999%23x&node=pve-4090&resize=off&cmd=");
        assertThatThrownBy(() -> ConsoleLauncher.noVncUrl("http://pve1.lab:8006", new VmRef("n", "100"), "x"))
                .as("https only").isInstanceOf(IllegalArgumentException.class);
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
        ConsoleLauncher launcher = new ConsoleLauncher(OsFamily.LINUX, fake.toString(), fake.toString(), Optional::empty,
                (c, vm) -> UUID_OF_WIN10);
        ConsoleLauncher.Launch web = launcher.open(PVE, new VmRef("pve-4090", "101"), "train-01");
        assertThat(web.url()).isPresent();
        ConsoleLauncher.Launch viewer = launcher.open(KVM, new VmRef("kvm1", "win10-gpu"), "win10-gpu");
        assertThat(viewer.command()).containsExactly(fake.toString(), "--connect", "qemu+ssh://root@kvm1/system",
                "--uuid", "--", UUID_OF_WIN10);
        Eventually.untilHolds("both programs started", Duration.ofSeconds(10),
                () -> Files.exists(args) && Files.readAllLines(args).size() >= 2);
        assertThat(Files.readAllLines(args)).containsExactly(
                fake + " " + web.url().get(), fake + " --connect qemu+ssh://root@kvm1/system --uuid -- " + UUID_OF_WIN10);
    }

    @Test
    void aMissingToolSaysWhatToInstall() {
        ConsoleLauncher launcher = new ConsoleLauncher(OsFamily.LINUX, "xdg-open", dir.resolve("no-virt-viewer").toString(),
                Optional::empty, (c, vm) -> UUID_OF_WIN10);
        assertThatThrownBy(() -> launcher.open(KVM, new VmRef("kvm1", "win10-gpu"), "win10-gpu"))
                .isInstanceOf(IOException.class).hasMessageContaining("apt-get install virt-viewer");
    }

    @Test
    void anOpenerThatFailsIsReportedWithTheUrlToOpenByHand() throws Exception {
        Path failing = script("failing-opener", "exit 3\n");
        ConsoleLauncher launcher = new ConsoleLauncher(OsFamily.LINUX, failing.toString(), "virt-viewer", Optional::empty,
                NO_UUIDS);
        assertThatThrownBy(() -> launcher.open(PVE, new VmRef("pve-4090", "101"), "train-01"))
                .isInstanceOf(IOException.class).hasMessageContaining("exited with 3")
                .hasMessageContaining("https://pve1.lab:8006/?console=kvm");
    }

    @Test
    void theDemoLabsConsoleIsOnTheSimulatorsAddressAndAnSshHostHasNone() throws Exception {
        ConsoleLauncher launcher = new ConsoleLauncher(OsFamily.LINUX, () -> Optional.of("https://127.0.0.1:41234"),
                NO_UUIDS, ProgramStarter.direct());
        ConnectionInfo demo = new ConnectionInfo(3, "Demo", ConnectionInfo.Kind.DEMO, "simulated", "", Optional.empty());
        assertThat(launcher.plan(demo, new VmRef("pve-4090", "101"), "train-01").url().orElseThrow().toString())
                .startsWith("https://127.0.0.1:41234/?console=kvm");
        ConnectionInfo ssh = new ConnectionInfo(4, "h", ConnectionInfo.Kind.SSH, "h", "root", Optional.empty());
        assertThatThrownBy(() -> launcher.plan(ssh, new VmRef("h", "x"), "x")).isInstanceOf(IllegalArgumentException.class);
        assertThat(new ConsoleLauncher(OsFamily.WINDOWS, Optional::empty, NO_UUIDS, ProgramStarter.direct())
                .plan(PVE, new VmRef("n", "101"), "v").command())
                .startsWith("rundll32", "url.dll,FileProtocolHandler");
    }

    /**
     * The names of finding 2 of the review: "3" (an id of another VM to virt-viewer), "-x" (an option), "a b/c" (a
     * space and a slash): on the Demo lab each opens its own VM's noVNC page with the name encoded and nothing added,
     * through the browser opener with the URL as its one argument.
     */
    @Test
    void oddVmNamesOpenTheirOwnConsoleOnTheDemoLab() throws Exception {
        ConsoleLauncher launcher = new ConsoleLauncher(OsFamily.LINUX, "xdg-open", "virt-viewer",
                () -> Optional.of("https://127.0.0.1:41234"), NO_UUIDS);
        ConnectionInfo demo = new ConnectionInfo(3, "Demo", ConnectionInfo.Kind.DEMO, "simulated", "", Optional.empty());
        java.util.Map<String, String> encoded = java.util.Map.of("3", "3", "-x", "-x", "a b/c", "a+b%2Fc");
        for (java.util.Map.Entry<String, String> e : encoded.entrySet()) {
            String name = e.getKey();
            String enc = e.getValue();
            ConsoleLauncher.Launch l = launcher.plan(demo, new VmRef("pve-4090", "105"), name);
            String url = "https://127.0.0.1:41234/?console=kvm&novnc=1&vmid=105&vmname=" + enc
                    + "&node=pve-4090&resize=off&cmd=";
            assertThat(l.url().orElseThrow()).as(name).hasToString(url);
            assertThat(l.command()).as(name).containsExactly("xdg-open", url);
        }
    }

    @Test
    void aLibvirtDomainIsOpenedByTheUuidOfItsOwnConfigurationAfterTheEndOfOptions() throws Exception {
        // a domain named "3" (virt-viewer would take 3 for an id: another VM) and one named "-x" (an option)
        String xml = Files.readString(Path.of("src/test/resources/libvirt/gpu-host.xml"));
        int end = xml.lastIndexOf("</node>");
        Path file = dir.resolve("host.xml");
        Files.writeString(file, xml.substring(0, end) + domain("3", UUID_OF_3) + domain("-x", UUID_OF_DASH_X)
                + xml.substring(end));
        try (AppContext ctx = TestContexts.create(dir.resolve("home"), dir.resolve("no-sysroot"), ThemeChoice.LIGHT,
                LanguageChoice.ENGLISH)) {
            ConnectionInfo kvm = ctx.connections().addLibvirt("kvm", "test://" + file);
            ConsoleLauncher launcher = new ConsoleLauncher(OsFamily.LINUX, "xdg-open", "virt-viewer", Optional::empty,
                    ConsoleLauncher.uuids(ctx.sessions()));
            try {
                String host = ctx.sessions().of(kvm).inventory().vms().get(0).ref().node();
                assertThat(launcher.plan(kvm, new VmRef(host, "3"), "3").command()).containsExactly("virt-viewer",
                        "--connect", "test://" + file, "--uuid", "--", UUID_OF_3);
            } catch (BackendException e) {
                Assumptions.assumeFalse(e.getMessage().contains("not installed") && !"true".equals(System.getenv("CI")),
                        e.getMessage() + " (apt-get install libvirt0)");
                throw e;
            }
            String host = ctx.sessions().of(kvm).inventory().vms().get(0).ref().node();
            assertThat(launcher.plan(kvm, new VmRef(host, "-x"), "-x").command()).endsWith("--", UUID_OF_DASH_X)
                    .doesNotContain("-x");
        }
    }

    @Test
    void aDomainXmlWithoutAUuidIsRefusedRatherThanOpenedByName() {
        assertThatThrownBy(() -> ConsoleLauncher.uuidOf("<domain><name>3</name></domain>", new VmRef("h", "3")))
                .isInstanceOf(BackendException.class).hasMessageContaining("no <uuid>");
        assertThatThrownBy(() -> ConsoleLauncher.uuidOf("<!DOCTYPE d [<!ENTITY e SYSTEM 'file:///etc/passwd'>]>"
                + "<domain><uuid>&e;</uuid></domain>", new VmRef("h", "x"))).isInstanceOf(BackendException.class);
    }

    private static final String UUID_OF_3 = "11111111-2222-3333-4444-555555555555";
    private static final String UUID_OF_DASH_X = "aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee";

    private static String domain(String name, String uuid) {
        return "<domain type='test'><name>" + name + "</name><uuid>" + uuid + "</uuid><memory unit='MiB'>512</memory>"
                + "<vcpu>1</vcpu><os><type arch='x86_64'>hvm</type></os></domain>\n";
    }

    private Path script(String name, String body) throws IOException {
        Path p = dir.resolve(name);
        Files.writeString(p, "#!/bin/sh\n" + body);
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwx------"));
        return p;
    }

}
