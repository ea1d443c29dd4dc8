package io.gpuforge.telemetry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpuforge.app.AppContext;
import io.gpuforge.app.monitor.TelemetryService;
import io.gpuforge.app.settings.LanguageChoice;
import io.gpuforge.app.settings.ThemeChoice;
import io.gpuforge.domain.connections.ConnectionInfo;
import io.gpuforge.domain.telemetry.GpuTarget;
import io.gpuforge.domain.vm.VmRef;
import io.gpuforge.hypervisor.libvirt.LibvirtDaemon;
import io.gpuforge.testing.TestContexts;
import io.gpuforge.testing.Tools;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The GPU inside a libvirt VM, read through TelemetryService's guest-agent source over the libvirt backend, as far
 * as libvirt goes without a guest OS: the test driver (no guest agent at all) and a real libvirtd with a VM that
 * has the agent's channel but no agent running in it (nothing boots). Each failure is explained with what to do.
 */
class LibvirtGuestTelemetryTest {

    @TempDir
    Path dir;

    private AppContext context() throws Exception {
        return TestContexts.create(dir.resolve("home"), dir.resolve("no-sysroot"), ThemeChoice.LIGHT,
                LanguageChoice.ENGLISH);
    }

    @Test
    void aConnectionWhoseDriverHasNoGuestAgentSaysSoAndWhereElseToRead() throws Exception {
        try (AppContext ctx = context()) {
            ConnectionInfo lab = ctx.connections().addLibvirt("lab", "test:///default");
            String node = ctx.sessions().of(lab).inventory().nodes().get(0).name();
            assertThatThrownBy(() -> ctx.telemetry().read(new GpuTarget.Guest(lab, new VmRef(node, "test")),
                    Duration.ofSeconds(10))).isInstanceOf(TelemetryService.Failure.class)
                    .hasMessageContaining("VM test on " + node)
                    .hasMessageContaining("guest agent")
                    .hasMessageContaining("qemu:///system")
                    .hasMessageContaining("host");
        }
    }

    @Test
    void aRunningVmWithoutAnAgentInsideIsExplainedThroughARealLibvirtd() throws Exception {
        LibvirtDaemon.socketOrSkip();
        Tools.require("virsh", "libvirt-clients");
        String name = "gf-telemetry-" + Long.toHexString(System.nanoTime());
        Path xml = Files.writeString(dir.resolve(name + ".xml"), "<domain type='qemu'><name>" + name + "</name>"
                + "<memory unit='MiB'>128</memory><vcpu>1</vcpu><os><type arch='x86_64'>hvm</type></os>"
                + "<devices><channel type='unix'><target type='virtio' name='org.qemu.guest_agent.0'/></channel>"
                + "</devices></domain>", StandardCharsets.UTF_8);
        virsh("define", xml.toString());
        try (AppContext ctx = context()) {
            virsh("start", name);
            ConnectionInfo lab = ctx.connections().addLibvirt("lab", LibvirtDaemon.URI);
            String node = ctx.sessions().of(lab).inventory().nodes().get(0).name();
            assertThatThrownBy(() -> ctx.telemetry().read(new GpuTarget.Guest(lab, new VmRef(node, name)),
                    Duration.ofSeconds(20))).isInstanceOf(TelemetryService.Failure.class)
                    .hasMessageContaining("guest agent in VM " + name)
                    .hasMessageContaining("is not running")
                    .hasMessageContaining("qemu-guest-agent");
        } finally {
            virsh("destroy", name);
            virsh("undefine", name);
        }
    }

    private static void virsh(String... args) throws Exception {
        String[] cmd = new String[args.length + 3];
        cmd[0] = "virsh";
        cmd[1] = "-c";
        cmd[2] = LibvirtDaemon.URI;
        System.arraycopy(args, 0, cmd, 3, args.length);
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
        }
    }
}
