package io.gpuforge.hypervisor.libvirt;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.gpuforge.app.vmcreate.TemplateService;
import io.gpuforge.domain.vm.CloudImage;
import io.gpuforge.domain.vm.CloudInit;
import io.gpuforge.domain.tasks.TaskListener;
import io.gpuforge.domain.tasks.TaskOutcome;
import io.gpuforge.domain.vm.VmAction;
import io.gpuforge.domain.vm.VmOptions;
import io.gpuforge.domain.vm.VmRef;
import io.gpuforge.domain.vm.VmSpec;
import io.gpuforge.domain.vm.VmState;
import io.gpuforge.domain.vm.VmTemplate;
import io.gpuforge.testing.Tools;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.libvirt.Connect;

/**
 * A real VM from the CUDA workstation template on the real libvirtd (qemu:///system, TCG): a transient directory
 * pool of its own, the cloud image fetched over HTTP from this test (a small qcow2 made with qemu-img) and uploaded
 * into the pool, the disk a qcow2 volume backed by it, the NoCloud seed made with cloud-localds and read back with
 * isoinfo, the domain defined and started. Unique names; everything is removed afterwards, whatever happened.
 */
class LibvirtDaemonVmCreateTest {

    private final String name = "gf-create-" + Long.toHexString(System.nanoTime());
    private DaemonPool pool;
    private Path poolDir;
    private HttpServer http;

    @BeforeEach
    void pool() throws Exception {
        LibvirtDaemon.socketOrSkip();
        Tools.require("qemu-img", "qemu-utils");
        Tools.require("cloud-localds", "cloud-image-utils");
        Tools.require("isoinfo", "genisoimage");
        pool = DaemonPool.create(name);
        poolDir = pool.dir;
    }

    @AfterEach
    void cleanUp() throws Exception {
        if (http != null) {
            http.stop(0);
        }
        if (pool == null) {
            return;
        }
        try (LibvirtConnection c = LibvirtConnection.open(LibvirtDaemon.URI)) {
            if (c.domains().stream().anyMatch(v -> v.name().equals(name))) {
                try {
                    c.forceOff(name);
                } catch (LibvirtBackendException e) {
                    // not running
                }
                c.undefine(name);
            }
        } finally {
            pool.close();
        }
    }

    @Test
    void aVmFromTheCudaTemplateIsDefinedStartedAndItsSeedReadsAsNoCloud() throws Exception {
        Path image = poolDir.resolveSibling(name + "-image.qcow2");
        run("qemu-img", "create", "-f", "qcow2", image.toString(), "64M");
        byte[] bytes = Files.readAllBytes(image);
        Files.delete(image);
        http = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        http.createContext("/noble.img", ex -> {
            ex.sendResponseHeaders(200, bytes.length);
            try (OutputStream o = ex.getResponseBody()) {
                o.write(bytes);
            }
        });
        http.start();
        VmTemplate cuda = TemplateService.loadBuiltIn().get(0);
        CloudInit ci = new CloudInit("ada", Optional.empty(), List.of("ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGq8 ada@lab"),
                new CloudInit.Dhcp(), List.of(), Optional.empty(), cuda.renderUserData(Map.of()));
        VmSpec spec = new VmSpec(name, 1, 256, Optional.empty(), VmSpec.USER_NETWORK, Optional.empty(), List.of(), true,
                false, new VmOptions(Optional.of(name), OptionalInt.of(2), Optional.of(new CloudImage("http://127.0.0.1:"
                + http.getAddress().getPort() + "/noble.img", "noble-test.qcow2", Optional.empty())), Optional.of(ci),
                "host", false, "l26", true, List.of()));
        try (LibvirtHypervisor h = LibvirtHypervisor.open(LibvirtDaemon.URI)) {
            String host = h.inventory().name();
            assertThat(h.storages(host)).anySatisfy(s -> assertThat(s.name()).isEqualTo(name));
            List<String> log = new ArrayList<>();
            TaskOutcome out = h.createVm(host, spec).await(log::add, () -> false, Duration.ofMinutes(2));
            assertThat(out.ok()).as(String.join("\n", log)).isTrue();
            assertThat(log).anyMatch(l -> l.startsWith("download http://127.0.0.1"))
                    .as("streamed through a file, its sum said (this server publishes no SHA256SUMS)")
                    .anyMatch(l -> l.startsWith("cloud image noble-test.qcow2 uploaded into pool " + name + " (")
                            && l.contains(", SHA-256 ") && l.endsWith(", no published sum to check it against)"))
                    .anyMatch(l -> l.contains("made with cloud-localds"));
            assertThat(h.volumes(host, name, "import")).contains("noble-test.qcow2", name + "-disk0.qcow2");
            String xml = h.readConfig(new VmRef(host, name)).document();
            assertThat(xml).contains(poolDir.resolve(name + "-disk0.qcow2").toString())
                    .contains(poolDir.resolve(name + "-seed.iso").toString()).contains("org.qemu.guest_agent.0");
            // the disk is a 2 GiB qcow2 on top of the uploaded image (read through libvirt: the daemon's volumes
            // are its own, 0600, and the tests run as an unprivileged user)
            String disk = volumeXml(name + "-disk0.qcow2");
            assertThat(disk).contains("<capacity unit='bytes'>2147483648</capacity>").contains("<format type='qcow2'/>")
                    .contains(poolDir.resolve("noble-test.qcow2").toString());

            Path seed = download(name + "-seed.iso");
            assertThat(run("isoinfo", "-d", "-i", seed.toString())).containsIgnoringCase("Volume id: cidata");
            assertThat(run("isoinfo", "-J", "-f", "-i", seed.toString())).contains("/user-data", "/meta-data",
                    "/network-config");
            String userData = run("isoinfo", "-J", "-i", seed.toString(), "-x", "/user-data");
            assertThat(userData).startsWith("#cloud-config").contains("name: \"ada\"")
                    .contains("nvidia-ctk runtime configure --runtime=docker");
            assertThat(run("isoinfo", "-J", "-i", seed.toString(), "-x", "/meta-data")).contains("local-hostname: \""
                    + name + "\"");

            h.vmAction(new VmRef(host, name), VmAction.START).await(TaskListener.none(), () -> false, Duration.ofMinutes(1));
            assertThat(h.inventory().vm(new VmRef(host, name)).orElseThrow().state()).isEqualTo(VmState.RUNNING);
        }
    }

    private String volumeXml(String volume) throws Exception {
        return pool.volumeXml(volume);
    }

    /** A copy of a volume of the pool, made through libvirt's download stream, in a file of the test's own. */
    private Path download(String volume) throws Exception {
        Path copy = Files.createTempFile(poolDir.getParent(), name + "-", "-" + volume);
        Files.write(copy, pool.download(volume));
        copy.toFile().deleteOnExit();
        return copy;
    }

    private static String run(String... cmd) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(String.join(" ", cmd) + ": " + out).isZero();
        return out;
    }
}
