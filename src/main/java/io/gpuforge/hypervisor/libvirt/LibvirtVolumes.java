package io.gpuforge.hypervisor.libvirt;

import io.gpuforge.domain.BackendException;
import io.gpuforge.domain.vm.NetworkInfo;
import io.gpuforge.domain.vm.StorageInfo;
import io.gpuforge.domain.vm.VmSpec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.libvirt.Connect;
import org.libvirt.LibvirtException;
import org.libvirt.StoragePool;
import org.libvirt.StoragePoolInfo;
import org.libvirt.StorageVol;
import org.libvirt.Stream;

/**
 * Storage pools, networks and volumes of a libvirt host: listing them for the wizard, a VM's disk as a new qcow2
 * volume backed by a cloud image volume, and uploading bytes (a seed image, a downloaded cloud image) into a pool
 * through libvirt's own stream, so it works the same for a remote host.
 */
final class LibvirtVolumes {

    private static final int CHUNK = 1 << 20;
    private final LibvirtConnection connection;

    LibvirtVolumes(LibvirtConnection connection) {
        this.connection = connection;
    }

    List<StorageInfo> pools() throws LibvirtBackendException {
        return connection.call("list storage pools", c -> {
            List<StorageInfo> out = new ArrayList<>();
            List<String> names = new ArrayList<>(Arrays.asList(c.listStoragePools()));
            names.addAll(Arrays.asList(c.listDefinedStoragePools()));
            for (String name : names) {
                StoragePool p = c.storagePoolLookupByName(name);
                try {
                    StoragePoolInfo info = p.getInfo();
                    String type = Xml.parse(p.getXMLDesc(0)).getAttribute("type");
                    out.add(new StorageInfo(name, type, List.of(StorageInfo.IMAGES, StorageInfo.ISO, StorageInfo.IMPORT),
                            info.capacity, info.available, p.isActive() == 1));
                } finally {
                    p.free();
                }
            }
            return out;
        });
    }

    List<NetworkInfo> networks() throws LibvirtBackendException {
        return connection.call("list networks", c -> {
            List<NetworkInfo> out = new ArrayList<>();
            for (String n : c.listNetworks()) {
                out.add(new NetworkInfo(n, "network", true));
            }
            for (String n : c.listDefinedNetworks()) {
                out.add(new NetworkInfo(n, "network", false));
            }
            out.add(new NetworkInfo(VmSpec.USER_NETWORK, "user", true));
            return out;
        });
    }

    /** Volume names of a pool: {@code iso} ones end in .iso, {@code import} ones are disk images. */
    List<String> volumes(String pool, String content) throws LibvirtBackendException {
        return onPool(pool, "list the volumes of pool " + pool, p -> {
            p.refresh(0);
            List<String> out = new ArrayList<>();
            for (String v : p.listVolumes()) {
                String l = v.toLowerCase(Locale.ROOT);
                boolean iso = l.endsWith(".iso");
                if (content.equals(StorageInfo.ISO) ? iso : !iso) {
                    out.add(v);
                }
            }
            out.sort(String::compareTo);
            return out;
        });
    }

    /** The path of a volume of the pool, or empty when the pool has none of that name. */
    Optional<String> path(String pool, String volume) throws LibvirtBackendException {
        return onPool(pool, "look up " + volume + " in pool " + pool, p -> {
            for (String v : p.listVolumes()) {
                if (v.equals(volume)) {
                    StorageVol vol = p.storageVolLookupByName(v);
                    try {
                        return Optional.of(vol.getPath());
                    } finally {
                        vol.free();
                    }
                }
            }
            return Optional.empty();
        });
    }

    /** A new qcow2 volume of {@code gib} GiB, on top of {@code backingPath} (a cloud image) when given; its path. */
    String createDisk(String pool, String name, int gib, Optional<String> backingPath, String backingFormat)
            throws LibvirtBackendException {
        StringBuilder x = new StringBuilder("<volume>\n  <name>").append(DomainXmlBuilder.escape(name)).append("</name>\n")
                .append("  <capacity unit='G'>").append(gib).append("</capacity>\n")
                .append("  <target>\n    <format type='qcow2'/>\n  </target>\n");
        backingPath.ifPresent(b -> x.append("  <backingStore>\n    <path>").append(DomainXmlBuilder.escape(b)).append("</path>\n")
                .append("    <format type='").append(backingFormat).append("'/>\n  </backingStore>\n"));
        x.append("</volume>\n");
        return onPool(pool, "create the disk " + name + " in pool " + pool, p -> {
            StorageVol v = p.storageVolCreateXML(x.toString(), 0);
            try {
                return v.getPath();
            } finally {
                v.free();
            }
        });
    }

    /** A new raw volume holding exactly {@code bytes}, sent through libvirt's upload stream; its path. */
    String upload(String pool, String name, byte[] bytes) throws LibvirtBackendException {
        return upload(pool, name, bytes.length, (off, len) -> Arrays.copyOfRange(bytes, (int) off, (int) (off + len)));
    }

    /** The same from a file (a downloaded cloud image), read a chunk at a time: never whole in memory. */
    String upload(String pool, String name, java.nio.file.Path file) throws LibvirtBackendException {
        try (java.nio.channels.FileChannel in = java.nio.channels.FileChannel.open(file)) {
            long size = in.size();
            return upload(pool, name, size, (off, len) -> {
                java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(len);
                while (b.hasRemaining()) {
                    if (in.read(b, off + b.position()) < 0) {
                        throw new java.io.IOException(file + " ended before its " + size + " bytes");
                    }
                }
                return b.array();
            });
        } catch (java.io.IOException e) {
            throw new LibvirtBackendException(BackendException.Kind.FAILED, "cannot read " + file + " to upload it: "
                    + e.getMessage(), e);
        }
    }

    /** A part of what is uploaded. */
    @FunctionalInterface
    private interface Chunks {
        byte[] read(long offset, int length) throws java.io.IOException;
    }

    private String upload(String pool, String name, long size, Chunks chunks) throws LibvirtBackendException {
        String xml = "<volume>\n  <name>" + DomainXmlBuilder.escape(name) + "</name>\n  <capacity unit='bytes'>" + size
                + "</capacity>\n  <target>\n    <format type='raw'/>\n  </target>\n</volume>\n";
        return onPool(pool, "upload " + name + " into pool " + pool, p -> {
            StorageVol v = p.storageVolCreateXML(xml, 0);
            Connect c = p.getConnect();
            try {
                Stream s = c.streamNew(0);
                try {
                    v.upload(s, 0, size, 0);
                    for (long off = 0; off < size; off += CHUNK) {
                        byte[] chunk;
                        try {
                            chunk = chunks.read(off, (int) Math.min(CHUNK, size - off));
                        } catch (java.io.IOException e) {
                            throw new LibvirtBackendException(BackendException.Kind.FAILED, "cannot read what is"
                                    + " uploaded as " + name + ": " + e.getMessage(), e);
                        }
                        int sent = s.send(chunk);
                        if (sent < 0) {
                            throw new LibvirtBackendException(BackendException.Kind.FAILED, "libvirt refused the upload"
                                    + " of " + name, null);
                        }
                    }
                    s.finish();
                } catch (LibvirtException | LibvirtBackendException e) {
                    s.abort();
                    v.delete(0);
                    throw e;
                } finally {
                    s.free();
                }
                return v.getPath();
            } finally {
                v.free();
            }
        });
    }

    /** Deletes a volume GPUForge made (a create that failed part way); a missing one is fine. */
    void delete(String pool, String name) {
        try {
            onPool(pool, "delete " + name, p -> {
                StorageVol v = p.storageVolLookupByName(name);
                try {
                    v.delete(0);
                } finally {
                    v.free();
                }
                return null;
            });
        } catch (LibvirtBackendException e) {
            // nothing to clean up, or the host is gone: the caller reports the first failure
        }
    }

    @FunctionalInterface
    private interface PoolOp<T> {
        T apply(StoragePool p) throws LibvirtException, LibvirtBackendException;
    }

    private <T> T onPool(String pool, String what, PoolOp<T> op) throws LibvirtBackendException {
        return connection.call(what, c -> {
            StoragePool p = c.storagePoolLookupByName(pool);
            try {
                return op.apply(p);
            } finally {
                p.free();
            }
        });
    }
}
