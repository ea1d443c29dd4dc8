package io.gpuforge.app.passthrough;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.app.AppContext;
import io.gpuforge.app.settings.LanguageChoice;
import io.gpuforge.app.settings.ThemeChoice;
import io.gpuforge.domain.connections.ConnectionInfo;
import io.gpuforge.domain.passthrough.GpuVerdict;
import io.gpuforge.domain.connections.HostLink;
import io.gpuforge.testing.HostTrees;
import io.gpuforge.testing.TestContexts;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The node page's readiness: from the hypervisor's PCI listing when the node is not linked to its host (host checks
 * unknown), from the host itself once it is (here the link goes to "this computer", a sysroot Proxmox host).
 */
class NodeReadinessTest {

    @TempDir
    Path dir;

    @Test
    void aNodesGpusGetVerdictsFromTheListingUntilLinkedThenFromTheHost() throws Exception {
        Path sysroot = HostTrees.proxmoxSystemdBoot(dir.resolve("sysroot"));
        try (AppContext app = TestContexts.create(dir.resolve("home"), sysroot, ThemeChoice.LIGHT, LanguageChoice.ENGLISH)) {
            ConnectionInfo demo = app.connections().addDemo("Demo lab");
            NodeReadiness.Result listing = app.readiness().of(demo, "pve-4090", (h, t, f) -> false);
            assertThat(listing.fromHost()).isFalse();
            assertThat(listing.gpus()).extracting(v -> v.address().toString())
                    .containsExactly("0000:01:00.0", "0000:02:00.0");
            assertThat(listing.gpus()).allSatisfy(v -> assertThat(v.behind()).isNotEmpty());

            app.hostLinks().link(demo, "pve-4090", new HostLink.Local());
            NodeReadiness.Result host = app.readiness().of(demo, "pve-4090", (h, t, f) -> false);
            assertThat(host.fromHost()).isTrue();
            assertThat(host.gpus()).extracting(GpuVerdict::address).extracting(Object::toString)
                    .contains("0000:81:00.0", "0000:82:00.0");
        }
    }
}
