package io.gpuforge.host.ssh;

import io.gpuforge.host.probe.HostProbe;
import io.gpuforge.host.ProbeException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpuforge.domain.host.HostFacts;
import io.gpuforge.testing.HostTrees;
import io.gpuforge.testing.SysrootSshServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.time.Duration;
import java.util.Optional;
import org.apache.sshd.common.config.keys.KeyUtils;
import org.apache.sshd.common.config.keys.PublicKeyEntry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The probe over real SSH (sshd-core server on loopback) and OpenSSH-style host key checking. */
class SshProbeTest {

    @TempDir
    Path dir;

    private SysrootSshServer server;
    private Path sysroot;
    private Path knownHosts;

    @BeforeEach
    void start() throws Exception {
        sysroot = HostTrees.proxmoxSystemdBoot(dir.resolve("root"));
        server = new SysrootSshServer(sysroot, dir.resolve("hostkey.ser"));
        knownHosts = dir.resolve("known_hosts");
    }

    @AfterEach
    void stop() throws Exception {
        server.close();
    }

    private SshShell connect(HostKeyPolicy policy, String password) throws ProbeException {
        return SshShell.connect(new SshTarget("root", "127.0.0.1", server.port()),
                new SshShell.Credentials(Optional.of(password.toCharArray()), Optional.empty(), Optional.empty()),
                knownHosts, policy, Duration.ofSeconds(20));
    }

    @Test
    void probeOverSshInOneRoundTripEqualsTheLocalRead() throws Exception {
        HostFacts remote;
        try (SshShell shell = connect(HostKeyPolicy.acceptNew(), SysrootSshServer.PASSWORD)) {
            remote = new HostProbe().probe(shell, false);
        }
        assertThat(server.execChannels()).as("one exec channel for all facts").isEqualTo(1);
        HostFacts local = new HostProbe().probeLocal(Optional.of(sysroot));
        assertThat(remote.source()).isEqualTo("ssh:root@127.0.0.1:" + server.port());
        assertThat(remote.pci()).isEqualTo(local.pci());
        assertThat(remote.boot()).isEqualTo(local.boot());
        assertThat(remote.modprobe()).isEqualTo(local.modprobe());
        assertThat(remote.rootDevices()).isEqualTo(local.rootDevices()).hasSize(2);
        assertThat(remote.managementDevices()).isEqualTo(local.managementDevices());
        assertThat(remote.pci().gpus()).hasSize(4);
        assertThat(Files.readString(knownHosts)).startsWith("[127.0.0.1]:" + server.port() + " ");
    }

    @Test
    void anUnknownHostKeyIsRefusedUnlessAccepted() throws Exception {
        assertThatThrownBy(() -> connect(HostKeyPolicy.refuseUnknown(), SysrootSshServer.PASSWORD))
                .isInstanceOf(ProbeException.class).hasMessageContaining("is not known (SHA256:")
                .hasMessageContaining("--accept-new-host-key");
        assertThat(knownHosts).doesNotExist();
        String[] seen = new String[1];
        try (SshShell shell = connect((host, type, fp) -> {
            seen[0] = host + " " + type + " " + fp;
            return true;
        }, SysrootSshServer.PASSWORD)) {
            assertThat(shell.run("echo hi", new byte[0], Duration.ofSeconds(10)).stdout()).asString().isEqualTo("hi\n");
        }
        assertThat(seen[0]).startsWith("127.0.0.1 ").contains("SHA256:");
        // now known: accepted without asking
        try (SshShell shell = connect(HostKeyPolicy.refuseUnknown(), SysrootSshServer.PASSWORD)) {
            assertThat(shell.describe()).contains("127.0.0.1");
        }
    }

    @Test
    void aChangedHostKeyIsRefusedShowingBothFingerprints() throws Exception {
        KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
        g.initialize(256);
        KeyPair old = g.generateKeyPair();
        Files.writeString(knownHosts, "[127.0.0.1]:" + server.port() + " " + PublicKeyEntry.toString(old.getPublic()) + "\n");
        String oldFp = KeyUtils.getFingerPrint(old.getPublic());
        assertThatThrownBy(() -> connect(HostKeyPolicy.acceptNew(), SysrootSshServer.PASSWORD))
                .isInstanceOf(ProbeException.class).hasMessageContaining("CHANGED")
                .hasMessageContaining(oldFp).hasMessageMatching("(?s).*now offers SHA256:.*");
        assertThat(Files.readString(knownHosts)).as("the old entry is kept").contains(PublicKeyEntry.toString(old.getPublic()));
        assertThat(server.execChannels()).isZero();
    }

    @Test
    void aWrongPasswordIsAClearError() {
        assertThatThrownBy(() -> connect(HostKeyPolicy.acceptNew(), "wrong"))
                .isInstanceOf(ProbeException.class).hasMessageContaining("authentication refused");
    }
}
