package io.gpuforge.host.ssh;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.testing.HostTrees;
import io.gpuforge.testing.SshKeys;
import io.gpuforge.testing.SysrootSshServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A host behind a jump host ({@code ProxyJump}) is reached as OpenSSH's {@code -W} reaches it: over a channel of the
 * jump session, with no port listening on this machine while the session lasts (a listening port would let any
 * local process reach the target's SSH port through the jump host as this user). Checked in the kernel's own
 * list of listening TCP sockets, {@code /proc/net/tcp} and {@code tcp6}, for this process's own sockets.
 */
class SshJumpTest {

    @TempDir
    Path dir;

    /**
     * The local ports this JVM listens on (st 0A, the socket's inode among {@code /proc/self/fd}). Only this
     * process's sockets count: other programs on a shared machine open and close ports while the test runs.
     */
    private static Set<Integer> listening() throws IOException {
        Set<String> own = new HashSet<>();
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            fds.forEach(fd -> {
                try {
                    String link = Files.readSymbolicLink(fd).toString();
                    if (link.startsWith("socket:[")) {
                        own.add(link.substring("socket:[".length(), link.length() - 1));
                    }
                } catch (IOException closedMeanwhile) {
                    // the descriptor was closed between the listing and the read: not a listening socket now
                }
            });
        }
        Set<Integer> ports = new HashSet<>();
        for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
            Path p = Path.of(table);
            if (!Files.isReadable(p)) {
                continue;
            }
            try (Stream<String> lines = Files.lines(p)) {
                lines.skip(1).map(String::trim).map(l -> l.split("\\s+"))
                        .filter(f -> f.length > 9 && "0A".equals(f[3]) && own.contains(f[9]))
                        .forEach(f -> ports.add(Integer.parseInt(f[1].substring(f[1].indexOf(':') + 1), 16)));
            }
        }
        return ports;
    }

    @Test
    void aHostBehindAJumpHostIsReachedWithoutAListeningPort() throws Exception {
        Path labKey = SshKeys.ed25519(dir.resolve("keys/id_lab"), "");
        Path jumpKey = SshKeys.ed25519(dir.resolve("keys/id_jump"), "");
        try (SysrootSshServer target = new SysrootSshServer(HostTrees.bootVga(dir.resolve("lab")), dir.resolve("lab.hk"))
                .authorize(SshKeys.publicKey(labKey)).refusePasswords();
             SysrootSshServer jump = new SysrootSshServer(HostTrees.bootVga(dir.resolve("bastion")),
                     dir.resolve("bastion.hk")).authorize(SshKeys.publicKey(jumpKey)).refusePasswords()
                     .acceptForwarding()) {
            Path config = Files.writeString(dir.resolve("config"), String.join("\n",
                    "Host lab", "    HostName 127.0.0.1", "    Port " + target.port(), "    User admin",
                    "    IdentityFile " + labKey, "    ProxyJump bastion", "",
                    "Host bastion", "    HostName 127.0.0.1", "    Port " + jump.port(), "    User hop",
                    "    IdentityFile " + jumpKey, ""));
            Path knownHosts = dir.resolve("known_hosts");
            SshSetup setup = new SshSetup(Optional.of(config), List.of(), Optional.empty(), List.of(knownHosts),
                    knownHosts);
            Set<Integer> before = listening();
            assertThat(before).as("the servers' own ports are seen").contains(target.port(), jump.port());

            try (SshShell shell = SshShell.connect(SshDestination.parse("lab"), SshShell.Credentials.none(), setup,
                    HostKeyPolicy.acceptNew(), Duration.ofSeconds(30))) {
                assertThat(shell.run("echo through", new byte[0], Duration.ofSeconds(20)).stdout()).asString()
                        .isEqualTo("through\n");
                assertThat(listening()).as("no port listens while the jump session lasts").isEqualTo(before);
                // a second command over the same tunnel, with more data than one read
                byte[] big = shell.run("i=0; while [ $i -lt 4000 ]; do echo line-$i-of-the-tunnel; i=$((i+1)); done",
                        new byte[0], Duration.ofSeconds(30)).stdout();
                assertThat(new String(big).lines()).hasSize(4000).last().isEqualTo("line-3999-of-the-tunnel");
            }
            assertThat(jump.logins()).containsExactly("hop publickey");
            assertThat(jump.forwarded()).containsExactly("127.0.0.1:" + target.port());
            assertThat(target.logins()).containsExactly("admin publickey");
            assertThat(Files.readAllLines(knownHosts)).as("each host under its own name")
                    .anyMatch(l -> l.startsWith("[127.0.0.1]:" + target.port() + " "))
                    .anyMatch(l -> l.startsWith("[127.0.0.1]:" + jump.port() + " "));
        }
    }

    @Test
    void aChainOfTwoJumpHostsIsWalkedInOrderWithoutAListeningPort() throws Exception {
        Path key = SshKeys.ed25519(dir.resolve("keys/id_all"), "");
        try (SysrootSshServer target = new SysrootSshServer(HostTrees.bootVga(dir.resolve("lab")), dir.resolve("lab.hk"))
                .authorize(SshKeys.publicKey(key)).refusePasswords();
             SysrootSshServer inner = new SysrootSshServer(HostTrees.bootVga(dir.resolve("inner")), dir.resolve("in.hk"))
                     .authorize(SshKeys.publicKey(key)).refusePasswords().acceptForwarding();
             SysrootSshServer outer = new SysrootSshServer(HostTrees.bootVga(dir.resolve("outer")), dir.resolve("out.hk"))
                     .authorize(SshKeys.publicKey(key)).refusePasswords().acceptForwarding()) {
            Path config = Files.writeString(dir.resolve("config"), String.join("\n",
                    "Host lab", "    HostName 127.0.0.1", "    Port " + target.port(), "    ProxyJump outer,inner", "",
                    "Host inner", "    HostName 127.0.0.1", "    Port " + inner.port(), "",
                    "Host outer", "    HostName 127.0.0.1", "    Port " + outer.port(), "",
                    "Host *", "    User root", "    IdentityFile " + key, ""));
            Path knownHosts = dir.resolve("known_hosts");
            SshSetup setup = new SshSetup(Optional.of(config), List.of(), Optional.empty(), List.of(knownHosts),
                    knownHosts);
            Set<Integer> before = listening();
            try (SshShell shell = SshShell.connect(SshDestination.parse("lab"), SshShell.Credentials.none(), setup,
                    HostKeyPolicy.acceptNew(), Duration.ofSeconds(30))) {
                assertThat(shell.run("echo deep", new byte[0], Duration.ofSeconds(20)).stdout()).asString()
                        .isEqualTo("deep\n");
                assertThat(listening()).isEqualTo(before);
            }
            assertThat(outer.forwarded()).as("outer was asked for inner").containsExactly("127.0.0.1:" + inner.port());
            assertThat(inner.forwarded()).as("inner was asked for the target").containsExactly("127.0.0.1:" + target.port());
            assertThat(target.logins()).containsExactly("root publickey");
        }
    }
}
