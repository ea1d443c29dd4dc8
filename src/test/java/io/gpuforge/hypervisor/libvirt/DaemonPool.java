package io.gpuforge.hypervisor.libvirt;

import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Comparator;
import java.util.stream.Stream;
import org.libvirt.Connect;
import org.libvirt.StoragePool;

/**
 * A transient directory pool of a test's own on the real libvirtd, in a temporary directory; its volumes read back
 * through libvirt (the daemon's volumes are its own, 0600, and CI's tests run as an unprivileged user). Closing it
 * deletes its volumes, the pool and the directory, whatever happened.
 */
final class DaemonPool implements AutoCloseable {

    final String name;
    final Path dir;

    private DaemonPool(String name, Path dir) {
        this.name = name;
        this.dir = dir;
    }

    static DaemonPool create(String name) throws Exception {
        Path dir = Files.createTempDirectory("gf-pool-");
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        try (LibvirtConnection c = LibvirtConnection.open(LibvirtDaemon.URI)) {
            c.call("create a pool", x -> {
                x.storagePoolCreateXML("<pool type='dir'><name>" + name + "</name><target><path>" + dir
                        + "</path></target></pool>", 0).free();
                return null;
            });
        }
        return new DaemonPool(name, dir);
    }

    /** A volume's XML, as libvirt describes it. */
    String volumeXml(String volume) throws Exception {
        try (LibvirtConnection c = LibvirtConnection.open(LibvirtDaemon.URI)) {
            return c.call("read a volume", (Connect x) -> x.storagePoolLookupByName(name)
                    .storageVolLookupByName(volume).getXMLDesc(0));
        }
    }

    /** A volume's bytes, through libvirt's download stream. */
    byte[] download(String volume) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (LibvirtConnection c = LibvirtConnection.open(LibvirtDaemon.URI)) {
            c.call("download a volume", (Connect x) -> {
                org.libvirt.Stream st = x.streamNew(0);
                x.storagePoolLookupByName(name).storageVolLookupByName(volume).download(st, 0, 0, 0);
                byte[] buf = new byte[64 * 1024];
                for (int n; (n = st.receive(buf)) > 0; ) {
                    out.write(buf, 0, n);
                }
                st.finish();
                st.free();
                return null;
            });
        }
        return out.toByteArray();
    }

    @Override
    public void close() throws Exception {
        try (LibvirtConnection c = LibvirtConnection.open(LibvirtDaemon.URI)) {
            c.call("remove the pool", (Connect x) -> {
                StoragePool p = x.storagePoolLookupByName(name);
                for (String v : p.listVolumes()) {
                    p.storageVolLookupByName(v).delete(0);
                }
                p.destroy();
                p.free();
                return null;
            });
        } finally {
            try (Stream<Path> s = Files.walk(dir)) {
                s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }
}
