package io.gpuforge.host.apply;

import io.gpuforge.host.ProbeException;
import io.gpuforge.host.apply.HostConfigurator;
import io.gpuforge.host.apply.HostConfiguratorTest;
import io.gpuforge.host.ssh.HostKeyPolicy;
import io.gpuforge.host.probe.HostProbe;
import io.gpuforge.host.ssh.SshShell;
import io.gpuforge.host.ssh.SshTarget;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.domain.passthrough.PlanOptions;
import io.gpuforge.domain.host.HostFacts;
import io.gpuforge.domain.pci.PciAddress;
import io.gpuforge.domain.passthrough.PassthroughPlan;
import io.gpuforge.passthrough.Planner;
import io.gpuforge.testing.HostTrees;
import io.gpuforge.testing.SysrootSshServer;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A variable named GPUFORGE_ROOT in a host's environment (a profile, a leftover export) must not redirect what
 * GPUForge reads or writes there: the probe and the file scripts take a root only as an argument GPUForge passes.
 */
class HostEnvironmentRootTest {

    @TempDir
    Path dir;

    private static SshShell connect(SysrootSshServer server, Path dir) throws ProbeException {
        return SshShell.connect(new SshTarget("root", "127.0.0.1", server.port()),
                new SshShell.Credentials(Optional.of(SysrootSshServer.PASSWORD.toCharArray()), Optional.empty(),
                        Optional.empty()), dir.resolve("kh"), HostKeyPolicy.acceptNew(), Duration.ofSeconds(20));
    }

    @Test
    void gpuforgeRootInTheHostsEnvironmentIsIgnored() throws Exception {
        Path host = HostTrees.withBootTools(HostTrees.intelGrub(dir.resolve("host")));
        Path decoy = HostTrees.proxmoxSystemdBoot(dir.resolve("decoy"));
        Map<String, String> decoyBefore = HostConfiguratorTest.state(decoy);
        try (SysrootSshServer server = new SysrootSshServer(host, dir.resolve("hk"))
                .environment("GPUFORGE_ROOT", decoy.toString());
             SshShell shell = connect(server, dir)) {
            HostFacts f = new HostProbe().probe(shell, false);
            assertThat(f.summary().hostname()).as("the host's own tree is read, not the one the variable names")
                    .contains("z790");
            PassthroughPlan p = Planner.plan(f, PciAddress.parse("0000:01:00.0"), PlanOptions.defaults());
            HostConfigurator c = new HostConfigurator(shell, Optional.empty(), false, Clock.systemUTC());
            c.apply(p);
            assertThat(host.resolve("etc/default/grub")).content().contains("iommu=pt");
            c.rollback(Optional.empty());
        }
        assertThat(HostConfiguratorTest.state(decoy)).as("nothing written where GPUFORGE_ROOT points")
                .isEqualTo(decoyBefore);
        assertThat(decoy.resolve("var/lib/gpuforge")).doesNotExist();
    }
}
