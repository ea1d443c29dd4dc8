package io.gpuforge.hypervisor;

import io.gpuforge.domain.BackendException;
import io.gpuforge.domain.PciAddress;
import io.gpuforge.domain.VmRef;
import io.gpuforge.hypervisor.libvirt.LibvirtHypervisor;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.io.TempDir;

/**
 * The contract on libvirt's own test driver ({@code test:///file.xml}, no daemon): the host of gpu-host.xml
 * (its node devices mirror real machines) plus a stopped q35/UEFI domain. The test driver keeps its state
 * per connection, so every test starts from the file again.
 */
class LibvirtTestDriverContractTest extends HypervisorContract {

    /** A q35 UEFI domain that is defined but not running ({@code test:runstate} 5 = shut off). */
    static final String STOPPED_DOMAIN = "<domain type='test' xmlns:test='http://libvirt.org/schemas/domain/test/1.0'>\n"
            + "  <name>lab-stopped</name>\n  <memory unit='MiB'>4096</memory>\n  <vcpu>4</vcpu>\n"
            + "  <os>\n    <type arch='x86_64' machine='pc-q35-7.2'>hvm</type>\n"
            + "    <loader readonly='yes' type='pflash'>/usr/share/OVMF/OVMF_CODE_4M.fd</loader>\n  </os>\n"
            + "  <devices>\n    <controller type='pci' index='0' model='pcie-root'/>\n  </devices>\n"
            + "  <test:runstate>5</test:runstate>\n</domain>\n";

    @TempDir
    Path dir;

    /** gpu-host.xml with {@link #STOPPED_DOMAIN} added, in a temp dir. */
    static Path hostFile(Path dir) throws Exception {
        String host = Files.readString(Path.of("src/test/resources/libvirt/gpu-host.xml"), StandardCharsets.UTF_8);
        int end = host.lastIndexOf("</node>");
        Path file = dir.resolve("contract-host.xml");
        Files.writeString(file, host.substring(0, end) + STOPPED_DOMAIN + host.substring(end), StandardCharsets.UTF_8);
        return file;
    }

    static LibvirtHypervisor openOrSkip(String uri) throws BackendException {
        try {
            return LibvirtHypervisor.open(uri);
        } catch (BackendException e) {
            if (e.getMessage().contains("not installed")) {
                if ("true".equals(System.getenv("CI"))) {
                    throw new AssertionError(e.getMessage(), e);
                }
                Assumptions.abort(e.getMessage());
            }
            throw e;
        }
    }

    @Override
    protected Fixture open() throws Exception {
        LibvirtHypervisor h = openOrSkip("test://" + hostFile(dir).toAbsolutePath());
        String node = h.inventory().name();
        return new Fixture(h, node, new VmRef(node, "lab-stopped"), Optional.of(new VmRef(node, "win10-gpu")),
                Optional.empty(), Optional.of(List.of(PciAddress.parse("0000:01:00.0"), PciAddress.parse("0000:01:00.1"))),
                Optional.empty());
    }
}
