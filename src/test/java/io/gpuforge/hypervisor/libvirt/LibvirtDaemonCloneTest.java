package io.gpuforge.hypervisor.libvirt;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.domain.vm.CloneRequest;
import io.gpuforge.domain.tasks.TaskListener;
import io.gpuforge.domain.tasks.TaskOutcome;
import io.gpuforge.domain.vm.VmAction;
import io.gpuforge.domain.vm.VmRef;
import io.gpuforge.domain.vm.VmSpec;
import io.gpuforge.domain.vm.VmState;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;

/**
 * A full clone on the real libvirtd (qemu:///system, TCG): a UEFI domain whose disk is a volume of a transient
 * directory pool of the test's own, filled with known bytes through libvirt; the clone's disk read back through
 * libvirt's download stream holds the same bytes, the clone has its own UUID, MAC and UEFI variable store, and it
 * starts. Unique names; everything is removed afterwards, whatever happened.
 */
class LibvirtDaemonCloneTest {

    private final String name = "gf-clsrc-" + Long.toHexString(System.nanoTime());
    private final String cloneName = name.replace("gf-clsrc-", "gf-clone-");
    private DaemonPool pool;

    @BeforeEach
    void pool() throws Exception {
        LibvirtDaemon.socketOrSkip();
        pool = DaemonPool.create(name);
    }

    @AfterEach
    void cleanUp() throws Exception {
        if (pool == null) {
            return;
        }
        try (LibvirtConnection c = LibvirtConnection.open(LibvirtDaemon.URI)) {
            for (String d : List.of(name, cloneName)) {
                if (c.domains().stream().anyMatch(v -> v.name().equals(d))) {
                    try {
                        c.forceOff(d);
                    } catch (LibvirtBackendException e) {
                        // not running
                    }
                    c.undefine(d);
                }
            }
        } finally {
            pool.close();
        }
    }

    @Test
    void theClonesDiskHoldsTheSourcesBytesAndTheCloneStartsWithItsOwnIdentity() throws Exception {
        byte[] disk = new byte[3 << 20];
        new Random(42).nextBytes(disk);
        try (LibvirtConnection c = LibvirtConnection.open(LibvirtDaemon.URI)) {
            String path = new LibvirtVolumes(c).upload(name, name + "-disk0.raw", disk);
            c.define(new VmSpec(name, 1, 256, Optional.of(path), VmSpec.USER_NETWORK, Optional.empty(), List.of(),
                    true, false));
        }
        try (LibvirtHypervisor h = LibvirtHypervisor.open(LibvirtDaemon.URI)) {
            String host = h.inventory().name();
            String before = h.readConfig(new VmRef(host, name)).document();

            TaskOutcome out = h.cloneVm(new CloneRequest(new VmRef(host, name), cloneName, Optional.empty(), true,
                    Optional.empty())).await(TaskListener.none(), () -> false, Duration.ofMinutes(2));

            assertThat(out.ok()).as(String.join("\n", out.log())).isTrue();
            assertThat(pool.download(cloneName + "-disk0.raw")).as("the clone's disk, read through libvirt")
                    .isEqualTo(disk);
            Element src = Xml.parse(before);
            Element clone = Xml.parse(h.readConfig(new VmRef(host, cloneName)).document());
            assertThat(Xml.text(clone, "uuid")).isNotEqualTo(Xml.text(src, "uuid"));
            assertThat(Xml.all(clone, "mac")).extracting(m -> m.getAttribute("address"))
                    .doesNotContainAnyElementsOf(Xml.all(src, "mac").stream().map(m -> m.getAttribute("address"))
                            .toList());
            assertThat(Xml.all(clone, "nvram")).extracting(Element::getTextContent).allMatch(t -> t.contains(cloneName));
            assertThat(h.readConfig(new VmRef(host, name)).document()).isEqualTo(before);

            h.vmAction(new VmRef(host, cloneName), VmAction.START).await(TaskListener.none(), () -> false,
                    Duration.ofMinutes(1));
            assertThat(h.inventory().vm(new VmRef(host, cloneName)).orElseThrow().state()).isEqualTo(VmState.RUNNING);
        }
    }
}
