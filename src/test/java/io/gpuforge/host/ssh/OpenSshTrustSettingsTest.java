package io.gpuforge.host.ssh;

import io.gpuforge.host.ProbeException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpuforge.testing.HostTrees;
import io.gpuforge.testing.SysrootSshServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Host keys are trusted as OpenSSH trusts them with the user's config: the system-wide known hosts file, and the
 * config's HostKeyAlias, UserKnownHostsFile, GlobalKnownHostsFile and StrictHostKeyChecking. Real SSH server; the
 * user's and the system's files are temp files standing in for {@code ~/.ssh/known_hosts} and
 * {@code /etc/ssh/ssh_known_hosts}.
 */
class OpenSshTrustSettingsTest {

    @TempDir
    Path dir;

    private SysrootSshServer server;
    private Path userFile;
    private Path ownFile;
    private Path globalFile;
    private final List<String> asked = new ArrayList<>();

    @BeforeEach
    void setUp() throws Exception {
        server = new SysrootSshServer(HostTrees.bootVga(dir.resolve("root")), dir.resolve("hk"));
        userFile = dir.resolve("home/.ssh/known_hosts");
        ownFile = dir.resolve("gpuforge/known_hosts");
        globalFile = dir.resolve("etc/ssh_known_hosts");
    }

    @AfterEach
    void tearDown() throws Exception {
        server.close();
    }

    /** The user's setup: OpenSSH's user file (where new keys go), GPUForge's own file, the system-wide file. */
    private SshSetup setup(String... config) throws Exception {
        Path file = Files.writeString(dir.resolve("config"), String.join("\n", config) + "\n");
        return new SshSetup(Optional.of(file), List.of(), Optional.empty(), List.of(userFile, ownFile), userFile,
                List.of(userFile), List.of(globalFile));
    }

    private SshShell connect(SshSetup setup, String destination, boolean accept) throws ProbeException {
        return SshShell.connect(SshDestination.parse(destination), new SshShell.Credentials(
                Optional.of(SysrootSshServer.PASSWORD.toCharArray()), Optional.empty(), Optional.empty()), setup,
                (host, type, fp) -> {
                    asked.add(host);
                    return accept;
                }, Duration.ofSeconds(20));
    }

    private String key() throws Exception {
        return server.knownHostsLine().substring(server.knownHostsLine().indexOf(' ') + 1);
    }

    private static void write(Path file, String line) throws Exception {
        Files.createDirectories(file.getParent());
        Files.writeString(file, line + "\n");
    }

    private String lab() {
        return String.join("\n", "Host lab", "    HostName 127.0.0.1", "    Port " + server.port(), "    User root");
    }

    @Test
    void openSshsSetupReadsTheSystemWideFiles() {
        SshSetup s = SshSetup.openSsh(dir.resolve(".ssh"), Map.of(), List.of(dir.resolve(".ssh/known_hosts")),
                dir.resolve(".ssh/known_hosts"));
        assertThat(s.globalKnownHosts()).containsExactly(Path.of("/etc/ssh/ssh_known_hosts"),
                Path.of("/etc/ssh/ssh_known_hosts2"));
        assertThat(s.knownHosts()).contains(dir.resolve(".ssh/known_hosts2"));
    }

    @Test
    void aKeyHandedOutInTheSystemWideFileIsKnown() throws Exception {
        write(globalFile, server.knownHostsLine());
        try (SshShell shell = connect(setup(lab()), "lab", false)) {
            assertThat(asked).isEmpty();
        }
    }

    @Test
    void hostKeyAliasIsTheNameTheKeyIsLookedUpAndWrittenUnder() throws Exception {
        try (SshShell shell = connect(setup(lab(), "    HostKeyAlias Lab-Alias"), "lab", true)) {
            assertThat(asked).containsExactly("lab-alias");
        }
        assertThat(Files.readString(userFile)).startsWith("lab-alias " + key().split(" ")[0]);
        asked.clear();
        try (SshShell again = connect(setup(lab(), "    HostKeyAlias lab-alias"), "lab", false)) {
            assertThat(asked).as("known under its alias").isEmpty();
        }
    }

    @Test
    void userKnownHostsFileStandsInForTheUsersFileForReadingAndWriting() throws Exception {
        Path org = dir.resolve("org/known_hosts");
        write(org, server.knownHostsLine());
        try (SshShell shell = connect(setup(lab(), "    UserKnownHostsFile " + org), "lab", false)) {
            assertThat(asked).isEmpty();
        }
        Path fresh = dir.resolve("org/new_known_hosts");
        try (SshShell shell = connect(setup(lab(), "    UserKnownHostsFile " + fresh + " " + org), "lab", true)) {
            assertThat(asked).as("the first file is read too").isEmpty();
        }
        Files.delete(org);
        try (SshShell shell = connect(setup(lab(), "    UserKnownHostsFile " + fresh), "lab", true)) {
            assertThat(asked).hasSize(1);
        }
        assertThat(Files.readString(fresh)).as("new keys go to the config's file").contains(key());
        assertThat(userFile).doesNotExist();
    }

    @Test
    void globalKnownHostsFileStandsInForTheSystemWideFile() throws Exception {
        Path org = dir.resolve("org/global_known_hosts");
        write(org, server.knownHostsLine());
        try (SshShell shell = connect(setup(lab(), "    GlobalKnownHostsFile " + org), "lab", false)) {
            assertThat(asked).isEmpty();
        }
    }

    @Test
    void strictHostKeyCheckingYesRefusesAnUnknownKeyWithoutAsking() throws Exception {
        assertThatThrownBy(() -> connect(setup(lab(), "    StrictHostKeyChecking yes"), "lab", true).close())
                .isInstanceOf(ProbeException.class).hasMessageContaining("StrictHostKeyChecking is yes");
        assertThat(asked).as("nobody was asked").isEmpty();
        assertThat(userFile).doesNotExist();
        assertThat(server.logins()).isEmpty();
    }

    @Test
    void strictHostKeyCheckingAcceptNewAcceptsAndRemembersWithoutAsking() throws Exception {
        try (SshShell shell = connect(setup(lab(), "    StrictHostKeyChecking accept-new"), "lab", false)) {
            assertThat(asked).isEmpty();
        }
        assertThat(Files.readString(userFile)).contains(key());
    }
}
