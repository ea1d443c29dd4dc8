package io.gpuforge.hypervisor.libvirt;

import io.gpuforge.domain.BackendException.Kind;
import io.gpuforge.domain.vm.CloudConfigs;
import io.gpuforge.domain.vm.CloudImage;
import io.gpuforge.domain.vm.CloudInit;
import io.gpuforge.domain.SpecRefusedException;
import io.gpuforge.domain.vm.VmField;
import io.gpuforge.domain.vm.VmOptions;
import io.gpuforge.domain.vm.VmSpec;
import io.gpuforge.bounded.BoundedDownload;
import io.gpuforge.bounded.BoundedReadException;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
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

    /** A download that makes no progress for this long is given up. */
    private static final Duration STALL = Duration.ofSeconds(60);
    /** Cloud images are a few hundred MiB to a few GiB. */
    private static final long MAX_IMAGE = 16L << 30;
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
                    Path dir = null;
                    try {
                        dir = Files.createTempDirectory("gpuforge-image-");
                        BoundedDownload.Result got = download(img, dir.resolve(img.fileName()), log);
                        have = Optional.of(volumes.upload(pool, img.fileName(), got.file()));
                        log.accept("cloud image " + img.fileName() + " uploaded into pool " + pool + " ("
                                + (got.bytes() >> 20) + " MiB, SHA-256 " + got.sha256() + got.checkedAgainst()
                                .map(a -> ", checked against " + a).orElse(", no published sum to check it against")
                                + ")");
                    } catch (IOException e) {
                        throw refused(VmField.IMAGE, "the cloud image could not be stored on this computer: "
                                + e.getMessage());
                    } finally {
                        deleteQuietly(dir);
                    }
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

    /**
     * The image streamed to {@code file} (never through the memory), with its progress told to {@code log} every 10 %,
     * checked against the template's SHA-256 or the image server's SHA256SUMS; a thread interrupted (a cancelled
     * create) stops it, and nothing of a failed download is left.
     */
    private static BoundedDownload.Result download(CloudImage img, Path file, Consumer<String> log)
            throws LibvirtBackendException {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(20))
                .followRedirects(HttpClient.Redirect.NORMAL).build();
        Thread caller = Thread.currentThread();
        int[] told = {0};
        try {
            return BoundedDownload.download(http, URI.create(img.url()), file, MAX_IMAGE, STALL, img.sha256(),
                    (done, total) -> {
                        if (total.isPresent() && total.getAsLong() > 0) {
                            int pct = (int) (done * 100 / total.getAsLong());
                            if (pct / 10 > told[0] / 10) {
                                told[0] = pct;
                                log.accept(String.format(java.util.Locale.ROOT, "download %d %% (%,d of %,d MiB)", pct,
                                        done >> 20, total.getAsLong() >> 20));
                            }
                        }
                    }, caller::isInterrupted);
        } catch (BoundedDownload.CancelledException e) {
            throw new LibvirtBackendException(Kind.FAILED, e.getMessage(), e);
        } catch (BoundedReadException e) {
            throw refused(VmField.IMAGE, e.kind() == BoundedReadException.Kind.TOO_LARGE ? img.url()
                    + " is larger than GPUForge uploads (" + (MAX_IMAGE >> 30) + " GiB): put it into the pool yourself"
                    + " as " + img.fileName() : e.getMessage());
        } catch (IOException | IllegalArgumentException e) {
            throw refused(VmField.IMAGE, "the cloud image could not be downloaded from " + img.url() + ": "
                    + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LibvirtBackendException(Kind.FAILED, "interrupted while downloading " + img.url(), e);
        }
    }

    private static void deleteQuietly(Path dir) {
        if (dir == null) {
            return;
        }
        try (java.util.stream.Stream<Path> s = Files.walk(dir)) {
            s.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // a temp directory: the system cleans it
        }
    }
}
