package io.gpuforge.hypervisor;

import io.gpuforge.domain.pci.PciAddress;
import io.gpuforge.domain.vm.VmRef;
import io.gpuforge.hypervisor.libvirt.LibvirtHypervisor;
import io.gpuforge.hypervisor.libvirt.TestDriverHost;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.io.TempDir;

/**
 * The contract on libvirt's own test driver ({@code test:///file.xml}, no daemon): the host of gpu-host.xml
 * (its node devices mirror real machines) plus a stopped q35/UEFI domain ({@link TestDriverHost}). The test
 * driver keeps its state per connection, so every test starts from the file again. Its free GPU is the
 * GT 1030 at 0000:01:00 (VGA + audio); win10-gpu runs and holds the RTX 3060.
 */
class LibvirtTestDriverContractTest extends HypervisorContract {

    @TempDir
    Path dir;

    @Override
    protected Fixture open() throws Exception {
        LibvirtHypervisor h = TestDriverHost.open(TestDriverHost.uri(dir));
        String node = h.inventory().name();
        return new Fixture(h, node, new VmRef(node, TestDriverHost.STOPPED), Optional.of(new VmRef(node, "win10-gpu")),
                Optional.empty(), Optional.of(List.of(PciAddress.parse("0000:01:00.0"), PciAddress.parse("0000:01:00.1"))),
                Optional.empty());
    }
}
