package io.gpuforge.passthrough;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.domain.pci.ListingReport;
import io.gpuforge.domain.passthrough.Verdict;
import io.gpuforge.domain.passthrough.ReadinessReport;
import io.gpuforge.domain.passthrough.PassthroughOverrides;
import io.gpuforge.domain.passthrough.GpuVerdict;
import io.gpuforge.domain.passthrough.Coverage;
import io.gpuforge.domain.passthrough.Check;
import io.gpuforge.domain.host.HostFacts;
import io.gpuforge.domain.pci.PciAddress;
import io.gpuforge.host.probe.HostProbe;
import io.gpuforge.host.listing.ListingParser;
import io.gpuforge.testing.HostTrees;
import io.gpuforge.testing.SharedFixtures;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The per-GPU verdicts the CLI prints and the window shows as badges. */
class GpuVerdictsTest {

    @Test
    void everyGpuOfAProxmoxHostWithItsVerdict(@TempDir Path dir) throws Exception {
        HostFacts f = new HostProbe().probeLocal(Optional.of(HostTrees.proxmoxSystemdBoot(dir)));
        List<GpuVerdict> v = GpuVerdicts.of(f, PassthroughOverrides.none(), Coverage.wholeHost());
        assertThat(v).hasSize(4).extracting(GpuVerdict::address).isSorted();
        for (GpuVerdict g : v) {
            ReadinessReport alone = Readiness.evaluate(f, Optional.of(g.address()), PassthroughOverrides.none());
            assertThat(g.verdict()).isEqualTo(alone.verdict().orElseThrow());
            assertThat(g.report().checks()).isEqualTo(alone.checks());
            // vfio_virqfd set to load on this 6.8 kernel decides every verdict; the host-wide vm.machine note does not
            assertThat(g.behindIds()).contains("modules.vfio").doesNotContain("vm.machine", "iommu.firmware");
            assertThat(g.behind()).allMatch(c -> c.status() != Check.Status.PASS);
        }
    }

    @Test
    void aGpuWithoutAGroupInAListingIsStillAsked() throws Exception {
        String text = new String(SharedFixtures.read("hosts/09-amd-x570-gtx1070-hd7750.txt"), StandardCharsets.UTF_8)
                .replace("IOMMU Group 25:\n", "...\n");
        ListingReport r = ListingParser.read(text);
        List<GpuVerdict> v = GpuVerdicts.of(HostFacts.fromListing("listing:x", r.inventory()),
                PassthroughOverrides.none(), Coverage.listing(r.partial(), r.groupsNotFullyShown()));
        assertThat(v).extracting(GpuVerdict::address)
                .containsExactly(PciAddress.parse("09:00.0"), PciAddress.parse("0a:00.0"));
        GpuVerdict hd = v.get(1);
        assertThat(hd.name()).contains("Advanced Micro Devices, Inc. [AMD/ATI] Cape Verde PRO [Radeon HD 7750/8740 / R7 250E]");
        assertThat(hd.verdict().kind()).isEqualTo(Verdict.Kind.NEEDS_HOST_SETUP);
        assertThat(hd.behindIds()).contains("group.isolation");
    }
}
