package io.gpuforge.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.app.AppContext;
import io.gpuforge.app.settings.LanguageChoice;
import io.gpuforge.app.settings.ThemeChoice;
import io.gpuforge.domain.connections.ConnectionInfo;
import io.gpuforge.testing.HostTrees;
import io.gpuforge.testing.SysrootSshServer;
import io.gpuforge.testing.TestContexts;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import io.gpuforge.cli.common.CliVault;

/**
 * An SSH host saved once (in the window, with its password in the vault and its host key accepted there) is named
 * by its name in the host commands, {@code --host NAME}, as hypervisors are with {@code --connection NAME}: the CLI
 * logs in with what was saved. Real sshd-core server, real vault and SQLite.
 */
class SavedHostCliTest {

    private static final String VAULT = "vault passphrase of the test";
    @TempDir
    Path dir;
    private CliHarness cli;

    private int run(String... args) {
        if (cli == null) {
            cli = new CliHarness(dir.resolve("home"), Map.of(CliVault.PASSPHRASE_VARIABLE, VAULT));
        }
        return cli.run("", args);
    }

    @Test
    void aSavedSshHostIsNamedByItsNameAndLoggedInToWithWhatWasSaved() throws Exception {
        try (SysrootSshServer server = new SysrootSshServer(HostTrees.bootVga(dir.resolve("root")),
                dir.resolve("host-key.ser"))) {
            try (AppContext ctx = TestContexts.create(dir.resolve("home"), dir.resolve("no-sysroot"), ThemeChoice.LIGHT,
                    LanguageChoice.ENGLISH)) {
                ctx.secrets().createVault(VAULT.toCharArray());
                ConnectionInfo c = ctx.connections().addSsh("gpu host", "root@127.0.0.1:" + server.port(),
                        Optional.of(SysrootSshServer.PASSWORD.toCharArray()));
                ctx.connections().addDemo("Demo lab");
                assertThat(ctx.hosts().probe(c, (h, t, f) -> true).source()).as("the window accepted its key")
                        .contains("127.0.0.1");
            }
            assertThat(run("iommu", "--host", "gpu host", "--json")).as(cli.err()).isZero();
            assertThat(cli.out()).contains("\"groups\"", "0000:01:00.0");
            assertThat(server.logins()).contains("root password");

            assertThat(run("iommu", "--host", "Demo lab")).isEqualTo(2);
            assertThat(cli.err()).contains("Demo lab is a demo connection, not an SSH host");
            assertThat(run("iommu", "--host", "nowhere")).isEqualTo(2);
            assertThat(cli.err()).contains("no saved connection named 'nowhere'");
        }
    }
}
