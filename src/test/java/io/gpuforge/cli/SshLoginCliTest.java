package io.gpuforge.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gpuforge.testing.CliProcess;
import io.gpuforge.testing.HostTrees;
import io.gpuforge.testing.SshAgentProcess;
import io.gpuforge.testing.SshKeys;
import io.gpuforge.testing.SysrootSshServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code gpuforge … --ssh} the way admins have SSH set up: the key in ssh-agent, hosts in {@code ~/.ssh/config}
 * (alias, HostName, Port, User, IdentityFile, ProxyJump), an encrypted default key. Each run is a real
 * {@code gpuforge} process whose home is a temp dir, against real SSH servers on loopback and a real ssh-agent.
 */
class SshLoginCliTest {

    @TempDir
    Path dir;

    private Path home;
    private Path ssh;
    private Path knownHosts;
    private CliProcess cli;

    @BeforeEach
    void setUp() throws Exception {
        home = Files.createDirectories(dir.resolve("home"));
        ssh = Files.createDirectories(home.resolve(".ssh"));
        knownHosts = dir.resolve("known_hosts");
        cli = new CliProcess(home, dir.resolve("gpuforge"));
    }

    private SysrootSshServer host(String name) throws Exception {
        return new SysrootSshServer(HostTrees.bootVga(dir.resolve(name)), dir.resolve(name + ".hostkey"));
    }

    private static JsonNode json(CliProcess.Result r) throws Exception {
        assertThat(r.exit()).as(r.err()).isZero();
        return new ObjectMapper().readTree(r.out());
    }

    @Test
    void theKeyInTheSshAgentLogsIn() throws Exception {
        Path key = SshKeys.ed25519(dir.resolve("keys/id_agent"), "agent passphrase");
        try (SysrootSshServer server = host("root").authorize(SshKeys.publicKey(key)).refusePasswords();
             SshAgentProcess agent = SshAgentProcess.start(dir.resolve("agent")).add(key, "agent passphrase")) {
            JsonNode doc = json(cli.run(Map.of("SSH_AUTH_SOCK", agent.socket().toString()), "", "iommu",
                    "--ssh", "root@127.0.0.1:" + server.port(), "--known-hosts", knownHosts.toString(),
                    "--accept-new-host-key", "--json"));
            assertThat(doc.get("source").asText()).isEqualTo("ssh:root@127.0.0.1:" + server.port());
            assertThat(doc.get("gpus")).hasSize(1);
            assertThat(server.logins()).containsExactly("root publickey");
        }
    }

    @Test
    void aHostAliasOfSshConfigWithItsPortUserKeyAndProxyJump() throws Exception {
        Path labKey = SshKeys.ed25519(dir.resolve("keys/id_lab"), "");
        Path jumpKey = SshKeys.ed25519(dir.resolve("keys/id_jump"), "");
        try (SysrootSshServer target = host("lab").authorize(SshKeys.publicKey(labKey)).refusePasswords();
             SysrootSshServer jump = host("bastion").authorize(SshKeys.publicKey(jumpKey)).refusePasswords()
                     .acceptForwarding()) {
            Files.writeString(ssh.resolve("config"), String.join("\n",
                    "# the admin's own hosts",
                    "Host lab",
                    "    HostName 127.0.0.1",
                    "    Port " + target.port(),
                    "    User admin",
                    "    IdentityFile " + labKey,
                    "    ProxyJump bastion",
                    "",
                    "Host bastion",
                    "    HostName 127.0.0.1",
                    "    Port " + jump.port(),
                    "    User hop",
                    "    IdentityFile " + jumpKey,
                    ""));
            JsonNode doc = json(cli.run(Map.of(), "", "iommu", "--ssh", "lab", "--known-hosts", knownHosts.toString(),
                    "--accept-new-host-key", "--json"));
            assertThat(doc.get("source").asText()).isEqualTo("ssh:admin@127.0.0.1:" + target.port());
            assertThat(doc.get("gpus")).hasSize(1);
            assertThat(jump.logins()).containsExactly("hop publickey");
            assertThat(jump.forwarded()).as("reached through the jump host").containsExactly("127.0.0.1:" + target.port());
            assertThat(target.logins()).containsExactly("admin publickey");
            List<String> lines = Files.readAllLines(knownHosts).stream().filter(l -> !l.isBlank()).toList();
            assertThat(lines).as("each host under its own name, no forwarded local port")
                    .hasSize(2).anyMatch(l -> l.startsWith("[127.0.0.1]:" + target.port() + " "))
                    .anyMatch(l -> l.startsWith("[127.0.0.1]:" + jump.port() + " "));
        }
    }

    @Test
    void anEncryptedDefaultKeySaysItCouldNotBeDecryptedAndHowToGiveThePassphrase() throws Exception {
        Path key = SshKeys.ed25519(ssh.resolve("id_ed25519"), "right phrase");
        try (SysrootSshServer server = host("root").authorize(SshKeys.publicKey(key)).refusePasswords()) {
            String[] args = {"iommu", "--ssh", "root@127.0.0.1:" + server.port(), "--known-hosts", knownHosts.toString(),
                    "--accept-new-host-key", "--json"};
            CliProcess.Result none = cli.run(Map.of(), "", args);
            assertThat(none.exit()).isNotZero();
            assertThat(none.err()).contains(key.toString()).contains("encrypted").contains("no passphrase")
                    .contains("GPUFORGE_SSH_KEY_PASSPHRASE").contains("ssh-add")
                    .doesNotContain("wrong password or key");

            CliProcess.Result wrong = cli.run(Map.of("GPUFORGE_SSH_KEY_PASSPHRASE", "wrong phrase"), "", args);
            assertThat(wrong.exit()).isNotZero();
            assertThat(wrong.err()).contains(key.toString()).contains("could not be decrypted")
                    .contains("wrong passphrase").doesNotContain("wrong password or key");

            JsonNode doc = json(cli.run(Map.of("GPUFORGE_SSH_KEY_PASSPHRASE", "right phrase"), "", args));
            assertThat(doc.get("gpus")).hasSize(1);
            assertThat(server.logins()).containsExactly("root publickey");
        }
    }

    @Test
    void aHostTheWindowTrustedIsKnownToTheCommandLine() throws Exception {
        try (SysrootSshServer server = host("root")) {
            Path own = Files.createDirectories(dir.resolve("gpuforge/config")).resolve("known_hosts");
            Files.writeString(own, server.knownHostsLine() + "\n");
            JsonNode doc = json(cli.run(Map.of(), SysrootSshServer.PASSWORD + "\n", "iommu",
                    "--ssh", "root@127.0.0.1:" + server.port(), "--password-stdin", "--json"));
            assertThat(doc.get("gpus")).hasSize(1);
            assertThat(ssh.resolve("known_hosts")).as("nothing new to remember").doesNotExist();
        }
    }

    @Test
    void newHostKeysGoToTheFileTheUserChose() throws Exception {
        try (SysrootSshServer server = host("root")) {
            String[] args = {"iommu", "--ssh", "root@127.0.0.1:" + server.port(), "--password-stdin",
                    "--accept-new-host-key", "--json"};
            json(cli.run(Map.of(), SysrootSshServer.PASSWORD + "\n", args));
            assertThat(Files.readString(ssh.resolve("known_hosts"))).as("OpenSSH's file by default")
                    .contains("[127.0.0.1]:" + server.port() + " ");

            Files.delete(ssh.resolve("known_hosts"));
            Path config = Files.createDirectories(dir.resolve("gpuforge/config"));
            Files.writeString(config.resolve("settings.json"), "{\"version\":1,\"newHostKeys\":\"GPUFORGE\"}");
            json(cli.run(Map.of(), SysrootSshServer.PASSWORD + "\n", args));
            assertThat(ssh.resolve("known_hosts")).doesNotExist();
            assertThat(Files.readString(config.resolve("known_hosts"))).contains("[127.0.0.1]:" + server.port() + " ");
        }
    }
}
