package io.gpuforge.hypervisor.libvirt;

import io.gpuforge.bounded.BoundedProcess;
import io.gpuforge.bounded.BoundedReadException;
import io.gpuforge.bounded.ReadLimits;
import io.gpuforge.domain.BackendException;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * A cloud-init NoCloud seed image (an ISO 9660 volume labelled {@code cidata} holding {@code user-data},
 * {@code meta-data} and {@code network-config}), made on this computer with a well-kept tool, never by hand:
 * {@code cloud-localds} (package cloud-image-utils), else {@code xorriso} or {@code genisoimage} with the same
 * options cloud-localds uses. The image is then uploaded into the libvirt host's pool, so a remote host needs
 * none of the tools.
 */
final class NoCloudSeed {

    /** The seed tool's time and output: 60 s, 64 KiB. */
    private static final ReadLimits TOOL_LIMITS = new ReadLimits(java.time.Duration.ofSeconds(60), 64 * 1024);
    /** A seed holds three small text files: far less than this. */
    private static final int MAX_SEED_BYTES = 16 << 20;

    /** The seed's three documents. */
    record Documents(String userData, String metaData, String networkConfig) {
    }

    private NoCloudSeed() {
    }

    /** The seed image's bytes and the tool that made it ({@code cloud-localds}…). */
    record Image(byte[] bytes, String tool) {
    }

    static Image make(Documents d) throws LibvirtBackendException {
        Path dir = null;
        try {
            dir = Files.createTempDirectory("gpuforge-seed-");
            Path user = Files.writeString(dir.resolve("user-data"), d.userData(), StandardCharsets.UTF_8);
            Path meta = Files.writeString(dir.resolve("meta-data"), d.metaData(), StandardCharsets.UTF_8);
            Path net = Files.writeString(dir.resolve("network-config"), d.networkConfig(), StandardCharsets.UTF_8);
            Path out = dir.resolve("seed.iso");
            List<String> cmd = new ArrayList<>();
            String tool;
            if (onPath("cloud-localds").isPresent()) {
                tool = "cloud-localds";
                cmd.addAll(List.of("cloud-localds", "--filesystem=iso9660", "--network-config=" + net, out.toString(),
                        user.toString(), meta.toString()));
            } else if (onPath("xorriso").isPresent()) {
                tool = "xorriso";
                cmd.addAll(List.of("xorriso", "-as", "genisoimage", "-output", out.toString(), "-volid", "cidata",
                        "-joliet", "-rock", user.toString(), meta.toString(), net.toString()));
            } else if (onPath("genisoimage").isPresent()) {
                tool = "genisoimage";
                cmd.addAll(List.of("genisoimage", "-output", out.toString(), "-volid", "cidata", "-joliet", "-rock",
                        user.toString(), meta.toString(), net.toString()));
            } else {
                throw new LibvirtBackendException(BackendException.Kind.UNSUPPORTED, "GPUForge makes the cloud-init seed"
                        + " with cloud-localds, xorriso or genisoimage, and none is installed on this computer:"
                        + " apt-get install cloud-image-utils", null);
            }
            BoundedProcess.Output r;
            try {
                // its output is drained from the start and the deadline holds while it prints nothing
                r = BoundedProcess.run(cmd, Optional.of(dir), TOOL_LIMITS);
            } catch (BoundedReadException e) {
                throw new LibvirtBackendException(e.kind() == BoundedReadException.Kind.DEADLINE
                        ? BackendException.Kind.TIMEOUT : BackendException.Kind.FAILED, e.getMessage()
                        + " while making the cloud-init seed image", e);
            }
            if (r.exitCode() != 0 || !Files.isRegularFile(out)) {
                throw new LibvirtBackendException(BackendException.Kind.FAILED, tool + " could not make the cloud-init"
                        + " seed (exit " + r.exitCode() + "): " + r.text().strip(), null);
            }
            byte[] image;
            try (java.io.InputStream in = Files.newInputStream(out)) {
                image = in.readNBytes(MAX_SEED_BYTES + 1);
            }
            if (image.length > MAX_SEED_BYTES) {
                throw new LibvirtBackendException(BackendException.Kind.FAILED, tool + " made a seed image of more"
                        + " than " + (MAX_SEED_BYTES >> 20) + " MiB, more than a cloud-init seed can be", null);
            }
            return new Image(image, tool);
        } catch (IOException e) {
            throw new LibvirtBackendException(BackendException.Kind.FAILED, "the cloud-init seed could not be made: "
                    + e.getMessage(), e);
        } finally {
            if (dir != null) {
                delete(dir);
            }
        }
    }

    private static Optional<Path> onPath(String command) {
        for (String d : System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(File.pathSeparator)) {
            Path p = Path.of(d, command);
            if (Files.isExecutable(p)) {
                return Optional.of(p);
            }
        }
        return Optional.empty();
    }

    private static void delete(Path dir) {
        try (Stream<Path> s = Files.walk(dir)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // a temp directory left behind; nothing secret in it beyond what the VM gets
        }
    }
}
