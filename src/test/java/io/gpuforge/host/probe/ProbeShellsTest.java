package io.gpuforge.host.probe;

import io.gpuforge.host.LocalShell;
import io.gpuforge.host.probe.HostProbe;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.domain.host.HostFacts;
import io.gpuforge.testing.HostTrees;
import io.gpuforge.testing.Tools;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;

/** The probe is POSIX sh: dash (Debian's sh), busybox ash (minimal hosts) and bash read a host alike. */
class ProbeShellsTest {

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"dash", "busybox sh", "bash --posix"})
    void everyShellReadsTheSameFacts(String interpreter) throws Exception {
        Tools.require(interpreter.split(" ")[0], interpreter.startsWith("busybox") ? "busybox" : interpreter.split(" ")[0]);
        Path root = HostTrees.proxmoxSystemdBoot(dir.resolve("pve"));
        HostFacts reference = new HostProbe().probeLocal(Optional.of(root));
        HostFacts f = new HostProbe().probe(new LocalShell(), Optional.of(root.toString()), false, "x", interpreter);
        assertThat(f.pci()).isEqualTo(reference.pci());
        assertThat(f.summary()).isEqualTo(reference.summary());
        assertThat(f.boot()).isEqualTo(reference.boot());
        assertThat(f.modprobe()).isEqualTo(reference.modprobe());
        assertThat(f.rootDevices()).isEqualTo(reference.rootDevices()).isNotEmpty();
        assertThat(f.managementDevices()).isEqualTo(reference.managementDevices()).isNotEmpty();
        assertThat(f.pci().devices()).filteredOn(d -> d.isGpu()).allMatch(d -> d.name().isPresent());
    }
}
