package io.gpuforge.app.vmcreate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpuforge.app.AppContext;
import io.gpuforge.app.settings.LanguageChoice;
import io.gpuforge.app.settings.ThemeChoice;
import io.gpuforge.domain.GpuInfo;
import io.gpuforge.domain.connections.ConnectionInfo;
import io.gpuforge.domain.pci.PciAddress;
import io.gpuforge.domain.vm.CloudInit;
import io.gpuforge.domain.vm.VmInfo;
import io.gpuforge.domain.vm.VmTemplate;
import io.gpuforge.testing.TestContexts;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A new VM's GPU that another VM holds is refused before anything is made, also when the inventory (or a window's
 * choice read a while ago) did not say who holds it: the Demo lab's pve-3090 card 0000:01:00.0 is llm-70b's and
 * render-02's through their mappings.
 */
class VmGpuPreflightTest {

    @TempDir
    Path dir;

    @Test
    void aHeldGpuIsRefusedAndNoVmIsMade() throws Exception {
        try (AppContext ctx = TestContexts.create(dir.resolve("home"), dir.resolve("no-sysroot"), ThemeChoice.LIGHT,
                LanguageChoice.ENGLISH)) {
            ConnectionInfo demo = ctx.connections().addDemo("Demo lab");
            VmTemplate t = ctx.templates().find("ubuntu-cuda").orElseThrow();
            CloudInit ci = new CloudInit("ada", Optional.empty(), List.of("ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGq8T9mJq3"
                    + "fNvH5c7kK3bA ada@lab"), new CloudInit.Dhcp(), List.of(), Optional.empty(), Optional.empty());
            // as a choice the window read before it knew who holds the card: "unknown", not "free"
            GpuInfo card = new GpuInfo("pve-3090", PciAddress.parse("0000:01:00.0"), "RTX 3090", Optional.empty(),
                    OptionalInt.empty(), Optional.empty(), Optional.empty(), false);
            VmProvisioning.Request r = new VmProvisioning.Request(new VmProvisioning.Target(demo, "pve-3090"), t,
                    "held-01", 4, 8192, 40, "local-zfs", "vmbr0", "host", Optional.of(ci), Map.of(), Optional.of(card),
                    true);
            int before = ctx.sessions().of(demo).inventory().vms().size();
            assertThatThrownBy(() -> ctx.provisioning().create(r, line -> { }, () -> false))
                    .hasMessageContaining("GPU 0000:01:00.0 is passed through to VM 121 (llm-70b) already")
                    .hasMessageContaining("nothing was created");
            assertThat(ctx.sessions().of(demo).inventory().vms()).hasSize(before).extracting(VmInfo::name)
                    .doesNotContain("held-01");
        }
    }
}
