package io.gpuforge.hypervisor.libvirt;

import io.gpuforge.domain.BackendException.Kind;
import io.gpuforge.domain.vm.CloudConfigs;
import io.gpuforge.domain.vm.CloudImage;
import io.gpuforge.domain.vm.CloudInit;
import io.gpuforge.domain.SpecRefusedException;
import io.gpuforge.domain.vm.VmField;
import io.gpuforge.domain.vm.VmOptions;
import io.gpuforge.domain.vm.VmSpec;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Consumer;

/**
 * A VM from a template on a libvirt host, in the chosen storage pool: the cloud image as a volume of the pool
 * (downloaded by GPUForge and uploaded through libvirt when the pool has none of that name), the system disk as a
 * new qcow2 volume backed by it and sized as asked, the NoCloud seed ({@link NoCloudSeed}) uploaded as a volume,
 * the ISOs found in the pool, then the domain defined from {@link DomainXmlBuilder}. What it made is removed again
 * when a later step fails.
 */
final class LibvirtProvisioning {

    /** Cloud images are big; a download that makes no progress for this long fails. */
    private static final Duration DOWNLOAD_TIMEOUT = Duration.ofMinutes(30);
    private static final long MAX_IMAGE = Integer.MAX_VALUE - 16;
    private final LibvirtConnection connection;
    private final LibvirtVolumes volumes;

    LibvirtProvisioning(LibvirtConnection connection) {
        this.connection = connection;
        this.volumes = new LibvirtVolumes(connection);
    }

    LibvirtVolumes volumes() {
        return volumes;
    }

    /** Makes the volumes and defines the domain; each step is told to {@code log}. */
    void create(VmSpec spec, Consumer<String> log) throws LibvirtBackendException {
        VmOptions o = spec.options();
        if (o.storage().isEmpty()) {
            connection.define(spec);
            return;
        }
        String pool = o.storage().get();
        if (volumes.pools().stream().noneMatch(p -> p.name().equals(pool) && p.active())) {
            throw refused(VmField.STORAGE, "this host has no active storage pool '" + pool + "'");
        }
        List<String> made = new ArrayList<>();
        try {
            Optional<String> backing = Optional.empty();
            String backingFormat = "qcow2";
            if (o.image().isPresent()) {
                CloudImage img = o.image().get();
                backingFormat = img.fileName().endsWith(".raw") ? "raw" : "qcow2";
                Optional<String> have = volumes.path(pool, img.fileName());
                if (have.isEmpty()) {
                    log.accept("download " + img.url() + " (on this computer, then into pool " + pool + ")");
                    byte[] bytes = download(img);
                    have = Optional.of(volumes.upload(pool, img.fileName(), bytes));
                    log.accept("cloud image " + img.fileName() + " uploaded into pool " + pool + " (" + (bytes.length >> 20)
                            + " MiB)");
                } else {
                    log.accept("cloud image " + img.fileName() + " is in pool " + pool + " already");
                }
                backing = have;
            }
            String diskName = spec.name() + "-disk0.qcow2";
            String disk = volumes.createDisk(pool, diskName, o.diskGiB().orElse(20), backing, backingFormat);
            made.add(diskName);
            log.accept("disk " + diskName + " (" + o.diskGiB().orElse(20) + " GiB" + backing.map(b -> ", backed by " + b)
                    .orElse("") + ")");
            Optional<String> seed = Optional.empty();
            if (o.cloudInit().isPresent()) {
                CloudInit ci = o.cloudInit().get();
                NoCloudSeed.Image image = NoCloudSeed.make(new NoCloudSeed.Documents(CloudConfigs.userData(spec.name(), ci),
                        CloudConfigs.metaData("gpuforge-" + spec.name() + "-" + UUID.randomUUID(), spec.name()),
                        CloudConfigs.networkConfig(ci)));
                String seedName = spec.name() + "-seed.iso";
                seed = Optional.of(volumes.upload(pool, seedName, image.bytes()));
                made.add(seedName);
                log.accept("cloud-init seed " + seedName + " (NoCloud, label cidata, made with " + image.tool() + ")");
            }
            List<String> isos = new ArrayList<>();
            for (String iso : o.isos()) {
                isos.add(iso.startsWith("/") ? iso : volumes.path(pool, iso).orElseThrow(() -> refused(VmField.IMAGE,
                        iso + " is not in pool " + pool + ": upload it there first (virsh vol-upload)")));
            }
            VmSpec placed = spec.withDiskPath(Optional.of(disk)).withCloudInitSeed(seed.isPresent() ? seed
                    : spec.cloudInitSeed()).withOptions(new VmOptions(o.storage(), o.diskGiB(), o.image(), o.cloudInit(),
                    o.cpuType(), o.tpm(), o.osType(), o.agent(), isos));
            connection.define(placed);
        } catch (LibvirtBackendException | RuntimeException e) {
            made.forEach(v -> volumes.delete(pool, v));
            throw e;
        }
    }

    private static LibvirtBackendException refused(VmField field, String message) {
        return new LibvirtBackendException(Kind.INVALID, message, new SpecRefusedException(Map.of(field, message), null));
    }

    /** The image's bytes, checked against its SHA-256 when the template gives one. */
    private static byte[] download(CloudImage img) throws LibvirtBackendException {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(20))
                .followRedirects(HttpClient.Redirect.NORMAL).build();
        try {
            HttpResponse<InputStream> r = http.send(HttpRequest.newBuilder(URI.create(img.url())).timeout(DOWNLOAD_TIMEOUT)
                    .GET().build(), HttpResponse.BodyHandlers.ofInputStream());
            try (InputStream in = r.body()) {
                if (r.statusCode() != 200) {
                    throw refused(VmField.IMAGE, img.url() + " answered HTTP " + r.statusCode());
                }
                byte[] bytes = in.readNBytes((int) MAX_IMAGE);
                if (in.read() >= 0) {
                    throw refused(VmField.IMAGE, img.url() + " is larger than GPUForge uploads (2 GiB): put it into the"
                            + " pool yourself as " + img.fileName());
                }
                if (img.sha256().isPresent()) {
                    String sum = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
                    if (!sum.equals(img.sha256().get())) {
                        throw refused(VmField.IMAGE, img.url() + " has SHA-256 " + sum + ", not the template's "
                                + img.sha256().get());
                    }
                }
                return bytes;
            }
        } catch (IOException | IllegalArgumentException e) {
            throw refused(VmField.IMAGE, "the cloud image could not be downloaded from " + img.url() + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LibvirtBackendException(Kind.FAILED, "interrupted while downloading " + img.url(), e);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
