package io.gpuforge.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpuforge.app.host.HostKeyPrompt;
import io.gpuforge.app.settings.KnownHostsFile;
import io.gpuforge.domain.connections.ConnectionInfo;
import io.gpuforge.domain.host.HostException;
import io.gpuforge.testing.HostTrees;
import io.gpuforge.testing.SysrootSshServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The window's saved SSH hosts trust what {@code ssh} trusts: the application context (as the window builds it, its
 * {@code ~/.ssh} a temp dir) reads the user's known_hosts and GPUForge's own, and writes a newly accepted key where
 * the user's setting says. Real sshd-core servers, real SQLite and vault.
 */
class WindowKnownHostsTest {

    private static final HostKeyPrompt REFUSE_UNKNOWN = (host, type, fingerprint) -> false;
    private static final HostKeyPrompt ACCEPT = (host, type, fingerprint) -> true;

    @TempDir
    Path dir;

    private Path ssh;
    private AppContext ctx;

    @BeforeEach
    void setUp() throws Exception {
        ssh = Files.createDirectories(dir.resolve("home/.ssh"));
        ctx = AppContext.create(AppPaths.underHome(dir.resolve("home")),
                new AppContext.Options(Optional.of(HostTrees.bootVga(dir.resolve("local"))), Map.of(), false, 1000,
                        Optional.of(ssh)),
                (t, e) -> { throw new AssertionError("uncaught in " + t.getName(), e); });
        ctx.secrets().createVault("vault passphrase".toCharArray());
    }

    @AfterEach
    void tearDown() {
        ctx.close();
    }

    private SysrootSshServer host(String name) throws Exception {
        return new SysrootSshServer(HostTrees.bootVga(dir.resolve(name)), dir.resolve(name + ".hostkey"));
    }

    private ConnectionInfo saved(SysrootSshServer server) throws Exception {
        return ctx.connections().addSsh("gpu host " + server.port(), "root@127.0.0.1:" + server.port(),
                Optional.of(SysrootSshServer.PASSWORD.toCharArray()));
    }

    @Test
    void aHostTrustedBySshIsKnownToTheWindow() throws Exception {
        try (SysrootSshServer server = host("a")) {
            ConnectionInfo c = saved(server);
            assertThatThrownBy(() -> ctx.hosts().probe(c, REFUSE_UNKNOWN)).isInstanceOf(HostException.class)
                    .hasMessageContaining("is not known");
            Files.writeString(ssh.resolve("known_hosts"), server.knownHostsLine() + "\n");
            assertThat(ctx.hosts().probe(c, REFUSE_UNKNOWN).source()).isEqualTo("ssh:root@127.0.0.1:" + server.port());
        }
    }

    @Test
    void aKeyAcceptedInTheWindowGoesWhereTheUserChose() throws Exception {
        Path own = ctx.paths().configDir().resolve("known_hosts");
        try (SysrootSshServer first = host("a"); SysrootSshServer second = host("b")) {
            ctx.hosts().probe(saved(first), ACCEPT);
            assertThat(ssh.resolve("known_hosts")).as("OpenSSH's file by default, so ssh trusts it too").content()
                    .contains("[127.0.0.1]:" + first.port() + " ");

            ctx.settings().update(s -> s.withNewHostKeys(KnownHostsFile.GPUFORGE));
            ConnectionInfo c = saved(second);
            ctx.hosts().probe(c, ACCEPT);
            assertThat(own).content().contains("[127.0.0.1]:" + second.port() + " ");
            assertThat(ssh.resolve("known_hosts")).content().doesNotContain("[127.0.0.1]:" + second.port() + " ");
            assertThat(ctx.hosts().probe(c, REFUSE_UNKNOWN).source()).as("and is trusted from there")
                    .isEqualTo("ssh:root@127.0.0.1:" + second.port());
        }
    }
}
