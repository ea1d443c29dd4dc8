package io.gpuforge.hypervisor.libvirt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpuforge.domain.BackendException;
import io.gpuforge.domain.vm.CloneRequest;
import io.gpuforge.domain.tasks.TaskListener;
import io.gpuforge.domain.tasks.TaskOutcome;
import io.gpuforge.domain.vm.VmRef;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Element;

/**
 * A full clone on libvirt's test driver: a directory pool "vm-images" holding the source's system disk, and two
 * shut-off domains: {@code cuda-base} (that disk, a NIC with a MAC, UEFI variables, an installer ISO) and
 * {@code loose-disk} (a disk file that is no volume of any pool). The copy of the bytes themselves is checked on
 * the real libvirtd ({@link LibvirtDaemonCloneTest}); the test driver copies only the volume's description.
 */
public class LibvirtCloneTest {

    private static final String MAC = "52:54:00:aa:bb:01";

    @TempDir
    Path dir;
    private LibvirtHypervisor h;
    private String host;
    private Path pool;

    @BeforeEach
    void open() throws Exception {
        pool = Files.createDirectories(dir.resolve("pool"));
        h = TestDriverHost.open(hostUri(dir, pool));
        host = h.inventory().name();
    }

    /**
     * gpu-host.xml plus the pool "vm-images" (in {@code pool}) with cuda-base's disk and the shut-off domains
     * cuda-base and loose-disk; its {@code test://} URI.
     */
    public static String hostUri(Path dir, Path pool) throws Exception {
        String file = Files.readString(Path.of("src/test/resources/libvirt/gpu-host.xml"), StandardCharsets.UTF_8);
        int end = file.lastIndexOf("</node>");
        String extra = "  <pool type='dir'>\n    <name>vm-images</name>\n    <capacity unit='GiB'>200</capacity>\n"
                + "    <allocation unit='GiB'>20</allocation>\n    <available unit='GiB'>180</available>\n"
                + "    <target>\n      <path>" + pool + "</path>\n    </target>\n"
                + "    <volume>\n      <name>cuda-base-disk0.qcow2</name>\n      <capacity unit='GiB'>40</capacity>\n"
                + "      <allocation unit='GiB'>3</allocation>\n      <target>\n        <format type='qcow2'/>\n"
                + "      </target>\n    </volume>\n  </pool>\n"
                + domain("cuda-base", pool.resolve("cuda-base-disk0.qcow2"))
                + domain("loose-disk", dir.resolve("elsewhere.qcow2"));
        Path hostFile = dir.resolve("clone-host.xml");
        Files.writeString(hostFile, file.substring(0, end) + extra + file.substring(end), StandardCharsets.UTF_8);
        return "test://" + hostFile.toAbsolutePath();
    }

    private static String domain(String name, Path disk) {
        return "<domain type='test' xmlns:test='http://libvirt.org/schemas/domain/test/1.0'>\n  <name>" + name
                + "</name>\n  <memory unit='MiB'>4096</memory>\n  <vcpu>4</vcpu>\n"
                + "  <os>\n    <type arch='x86_64' machine='pc-q35-7.2'>hvm</type>\n"
                + "    <loader readonly='yes' type='pflash'>/usr/share/OVMF/OVMF_CODE_4M.fd</loader>\n"
                + "    <nvram>/var/lib/libvirt/qemu/nvram/" + name + "_VARS.fd</nvram>\n  </os>\n"
                + "  <devices>\n    <disk type='file' device='disk'>\n      <driver name='qemu' type='qcow2'/>\n"
                + "      <source file='" + disk + "'/>\n      <target dev='vda' bus='virtio'/>\n    </disk>\n"
                + "    <disk type='file' device='cdrom'>\n      <source file='/srv/iso/virtio-win.iso'/>\n"
                + "      <target dev='sda' bus='sata'/>\n      <readonly/>\n    </disk>\n"
                + "    <interface type='network'>\n      <mac address='" + MAC + "'/>\n"
                + "      <source network='default'/>\n      <model type='virtio'/>\n    </interface>\n"
                + "  </devices>\n  <test:runstate>5</test:runstate>\n</domain>\n";
    }

    @AfterEach
    void close() {
        h.close();
    }

    private TaskOutcome clone(String source, String name, boolean full) throws Exception {
        return h.cloneVm(new CloneRequest(new VmRef(host, source), name, Optional.empty(), full, Optional.empty()))
                .await(TaskListener.none(), () -> false, Duration.ofSeconds(30));
    }

    @Test
    void aShutOffVmIsClonedWithACopyOfItsDiskANewIdentityAndItsIsoShared() throws Exception {
        String before = h.readConfig(new VmRef(host, "cuda-base")).document();

        TaskOutcome out = clone("cuda-base", "cuda-worker-2", true);

        assertThat(out.ok()).as(out.status()).isTrue();
        assertThat(out.created()).contains(new VmRef(host, "cuda-worker-2"));
        assertThat(out.log()).anyMatch(l -> l.contains("copied to " + pool.resolve("cuda-worker-2-disk0.qcow2"))
                && l.contains("qcow2") && l.contains("40960 MiB"))
                .anyMatch(l -> l.contains("shared with the source") && l.contains("/srv/iso/virtio-win.iso"))
                .anyMatch(l -> l.contains("new MAC addresses"));
        assertThat(h.volumes(host, "vm-images", "import")).contains("cuda-base-disk0.qcow2", "cuda-worker-2-disk0.qcow2");
        assertThat(h.inventory().vm(new VmRef(host, "cuda-worker-2"))).isPresent();

        Element clone = Xml.parse(h.readConfig(new VmRef(host, "cuda-worker-2")).document());
        Element source = Xml.parse(before);
        assertThat(Xml.text(clone, "uuid")).isPresent().isNotEqualTo(Xml.text(source, "uuid"));
        assertThat(Xml.all(clone, "mac")).extracting(m -> m.getAttribute("address")).hasSize(1).doesNotContain(MAC);
        assertThat(Xml.all(clone, "source")).extracting(s -> s.getAttribute("file"))
                .contains(pool.resolve("cuda-worker-2-disk0.qcow2").toString(), "/srv/iso/virtio-win.iso")
                .doesNotContain(pool.resolve("cuda-base-disk0.qcow2").toString());
        assertThat(Xml.all(clone, "nvram")).extracting(Element::getTextContent)
                .noneMatch(t -> t.contains("cuda-base"));
        assertThat(h.readConfig(new VmRef(host, "cuda-base")).document()).as("the source is left as it was")
                .isEqualTo(before);
    }

    @Test
    void aLinkedCloneARunningSourceATakenNameAndADiskOutsideEveryPoolAreRefusedLeavingNothingBehind()
            throws Exception {
        assertThatThrownBy(() -> clone("cuda-base", "cuda-linked", false)).isInstanceOfSatisfying(
                BackendException.class, e -> assertThat(e.getMessage()).contains("linked clone").contains("full clone"));
        assertThatThrownBy(() -> clone("win10-gpu", "win10-copy", true)).isInstanceOfSatisfying(
                BackendException.class, e -> assertThat(e.getMessage()).contains("win10-gpu is running")
                        .contains("shut it down"));
        assertThatThrownBy(() -> clone("cuda-base", "loose-disk", true)).isInstanceOfSatisfying(
                BackendException.class, e -> assertThat(e.getMessage()).contains("loose-disk exists"));
        assertThatThrownBy(() -> clone("loose-disk", "loose-copy", true)).isInstanceOfSatisfying(
                BackendException.class, e -> assertThat(e.getMessage()).contains(dir.resolve("elsewhere.qcow2")
                        .toString()).contains("not a volume of a storage pool").contains("virsh pool-define-as"));

        List<String> names = new ArrayList<>();
        h.inventory().vms().forEach(v -> names.add(v.name()));
        assertThat(names).doesNotContain("cuda-linked", "win10-copy", "loose-copy");
        assertThat(h.volumes(host, "vm-images", "import")).containsExactly("cuda-base-disk0.qcow2");
    }
}
