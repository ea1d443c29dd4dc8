package io.gpuforge.hypervisor.libvirt;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;

/**
 * The real libvirtd that some tests need ({@code qemu:///system}, QEMU with TCG, OVMF): absent, the test is
 * skipped with what to install; under CI=true its absence fails the test.
 */
public final class LibvirtDaemon {

    public static final String URI = "qemu:///system";
    static final Path SOCKET = Path.of("/var/run/libvirt/libvirt-sock");

    private LibvirtDaemon() {
    }

    /** libvirtd's read-write socket, when a daemon answers on it. */
    public static Path socketOrSkip() {
        try (SocketChannel probe = SocketChannel.open(StandardProtocolFamily.UNIX)) {
            probe.connect(UnixDomainSocketAddress.of(SOCKET));
            return SOCKET;
        } catch (IOException e) {
            return missing(SOCKET + ": " + e.getMessage());
        }
    }

    /** Skips (or fails under CI=true) with a message that names the packages and how to start the daemons. */
    public static <T> T missing(String why) {
        String m = "a running libvirtd is needed (apt-get install libvirt-daemon-system qemu-system-x86 ovmf;"
                + " virtlogd -d; libvirtd -d): " + why;
        if ("true".equals(System.getenv("CI"))) {
            throw new AssertionError(m);
        }
        Assumptions.abort(m);
        return null;
    }
}
