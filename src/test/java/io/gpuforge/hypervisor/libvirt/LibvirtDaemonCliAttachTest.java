package io.gpuforge.hypervisor.libvirt;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.app.AppPaths;
import io.gpuforge.cli.common.CliOutput;
import io.gpuforge.cli.GpuForgeCli;
import io.gpuforge.domain.pci.PciAddress;
import io.gpuforge.domain.pci.PciDevice;
import io.gpuforge.domain.vm.VmRef;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Element;

/**
 * {@code gpuforge attach --libvirt qemu:///system} against the real libvirtd: the domain's XML, as libvirt keeps it,
 * has a managed {@code <hostdev>} for every function of the card afterwards, and none after {@code detach}. The domain
 * is defined only, never started, so no device is ever taken from this host.
 */
class LibvirtDaemonCliAttachTest {

    @TempDir
    Path home;
    private String name;

    @AfterEach
    void undefine() throws Exception {
        if (name == null) {
            return;
        }
        try (LibvirtConnection c = LibvirtConnection.open(LibvirtDaemon.URI)) {
            if (c.domains().stream().anyMatch(v -> v.name().equals(name))) {
                c.undefine(name);
            }
        }
    }

    private int cli(StringWriter out, StringWriter err, String... args) {
        return GpuForgeCli.run(args, AppPaths.underHome(home), new CliOutput(new PrintWriter(out), new PrintWriter(err)));
    }

    @Test
    void attachGivesTheDomainAManagedHostdevPerFunctionAndDetachTakesThemAway() throws Exception {
        LibvirtDaemon.socketOrSkip();
        PciAddress card;
        List<PciAddress> functions;
        String host;
        try (LibvirtHypervisor h = LibvirtHypervisor.open(LibvirtDaemon.URI)) {
            host = h.inventory().name();
            List<PciDevice> devices = h.nodePci(host).inventory().devices();
            card = devices.stream().filter(d -> !d.isBridge()).map(PciDevice::address).reduce((a, b) -> b)
                    .orElseThrow(() -> new AssertionError("this host lists no PCI device that is not a bridge"));
            PciAddress c = card;
            functions = devices.stream().map(PciDevice::address).filter(c::sameSlot).sorted().toList();
        }
        name = "gpuforge-cli-attach-" + Long.toHexString(System.nanoTime());
        try (LibvirtConnection c = LibvirtConnection.open(LibvirtDaemon.URI)) {
            c.define(HypervisorSpecs.spec(name));
        }
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        assertThat(cli(out, err, "attach", "--libvirt", LibvirtDaemon.URI, "--vm", name, "--device", card.toString(),
                "--json")).as(err.toString()).isZero();
        assertThat(out.toString()).contains("\"status\" : \"attached\"");
        try (LibvirtHypervisor h = LibvirtHypervisor.open(LibvirtDaemon.URI)) {
            List<Element> devs = Xml.all(Xml.parse(h.readConfig(new VmRef(host, name)).document()), "hostdev");
            assertThat(devs).hasSize(functions.size());
            assertThat(devs).allSatisfy(d -> assertThat(d.getAttribute("managed")).isEqualTo("yes"));
            assertThat(devs).extracting(d -> NodeDeviceXml.address(Xml.children(Xml.children(d, "source").get(0),
                    "address").get(0))).containsExactlyInAnyOrderElementsOf(functions);
        }
        assertThat(cli(new StringWriter(), err, "detach", "--libvirt", LibvirtDaemon.URI, "--vm", name, "--device",
                card.toString())).as(err.toString()).isZero();
        try (LibvirtHypervisor h = LibvirtHypervisor.open(LibvirtDaemon.URI)) {
            assertThat(Xml.all(Xml.parse(h.readConfig(new VmRef(host, name)).document()), "hostdev")).isEmpty();
        }
    }
}
