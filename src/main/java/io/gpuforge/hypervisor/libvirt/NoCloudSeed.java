package io.gpuforge.hypervisor.libvirt;

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
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A cloud-init NoCloud seed image (an ISO 9660 volume labelled {@code cidata} holding {@code user-data},
 * {@code meta-data} and {@code network-config}), made on this computer with a well-kept tool, never by hand:
 * {@code cloud-localds} (package cloud-image-utils), else {@code xorriso} or {@code genisoimage} with the same
 * options cloud-localds uses. The image is then uploaded into the libvirt host's pool, so a remote host needs
 * none of the tools.
 */
final class NoCloudSeed {

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
            Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true).start();
            p.getOutputStream().close();
            byte[] output = p.getInputStream().readNBytes(64 * 1024);
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new LibvirtBackendException(BackendException.Kind.TIMEOUT, tool + " did not finish the seed image"
                        + " within 60 s", null);
            }
            if (p.exitValue() != 0 || !Files.isRegularFile(out)) {
                throw new LibvirtBackendException(BackendException.Kind.FAILED, tool + " could not make the cloud-init"
                        + " seed (exit " + p.exitValue() + "): " + new String(output, StandardCharsets.UTF_8).strip(), null);
            }
            return new Image(Files.readAllBytes(out), tool);
        } catch (IOException e) {
            throw new LibvirtBackendException(BackendException.Kind.FAILED, "the cloud-init seed could not be made: "
                    + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LibvirtBackendException(BackendException.Kind.FAILED, "interrupted while making the seed", e);
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
