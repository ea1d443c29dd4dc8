package io.gpuforge.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gpuforge.app.AppContext;
import io.gpuforge.app.settings.LanguageChoice;
import io.gpuforge.app.settings.ThemeChoice;
import io.gpuforge.cli.common.CliVault;
import io.gpuforge.domain.connections.ConnectionInfo;
import io.gpuforge.domain.connections.HostLink;
import io.gpuforge.testing.HostTrees;
import io.gpuforge.testing.SysrootSshServer;
import io.gpuforge.testing.TestContexts;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code apply}, {@code verify} and {@code rollback} take a node of a saved connection as {@code passthrough} does
 * ({@code --connection NAME [--node N]}): its linked host, here a saved SSH host over a real sshd-core server on a
 * host tree. {@code rollback --status} lists the plans applied there; the Demo lab's nodes are their simulated hosts.
 */
class RollbackOnANodeCliTest {

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
    void aPlanAppliedOnANodesHostIsListedAndRolledBackThroughTheNode() throws Exception {
        Path root = HostTrees.withBootTools(HostTrees.intelGrub(dir.resolve("h")));
        String grub = Files.readString(root.resolve("etc/default/grub"));
        try (SysrootSshServer server = new SysrootSshServer(root, dir.resolve("host-key.ser"))) {
            try (AppContext ctx = TestContexts.create(dir.resolve("home"), dir.resolve("no-sysroot"), ThemeChoice.LIGHT,
                    LanguageChoice.ENGLISH)) {
                ctx.secrets().createVault(VAULT.toCharArray());
                ConnectionInfo ssh = ctx.connections().addSsh("gpu host", "root@127.0.0.1:" + server.port(),
                        Optional.of(SysrootSshServer.PASSWORD.toCharArray()));
                assertThat(ctx.hosts().probe(ssh, (h, t, f) -> true).source()).contains("127.0.0.1");
                ConnectionInfo lab = ctx.connections().addLibvirt("lab", "test:///default");
                String node = ctx.sessions().of(lab).inventory().nodes().get(0).name();
                ctx.hostLinks().link(lab, node, new HostLink.SavedSsh(ssh.id()));
                ctx.connections().addDemo("Demo lab");
            }
            assertThat(run("rollback", "--connection", "lab", "--status")).as(cli.err()).isZero();
            assertThat(cli.out()).contains("no GPUForge apply on this host").contains("No plan applied");

            assertThat(run("apply", "--connection", "lab", "--device", "0000:01:00.0", "--yes")).as(cli.err())
                    .isZero();
            assertThat(run("verify", "--connection", "lab")).as("not rebooted yet").isEqualTo(1);
            assertThat(cli.out()).contains("The host is NOT as planned");
            assertThat(run("rollback", "--connection", "lab", "--status", "--json")).as(cli.err()).isZero();
            JsonNode status = new ObjectMapper().readTree(cli.out());
            assertThat(status.get("state").asText()).isEqualTo("applied");
            assertThat(status.get("plans")).hasSize(1);
            JsonNode plan = status.get("plans").get(0);
            assertThat(plan.get("id").asText()).isEqualTo(status.get("journal").asText());
            assertThat(plan.get("functions").toString()).contains("0000:01:00.0");
            assertThat(plan.get("files").toString()).contains("/etc/default/grub");

            assertThat(run("rollback", "--connection", "lab")).as(cli.err()).isZero();
            assertThat(Files.readString(root.resolve("etc/default/grub"))).as("restored byte for byte").isEqualTo(grub);
            assertThat(run("rollback", "--connection", "lab", "--status")).as(cli.err()).isZero();
            assertThat(cli.out()).contains(": untouched (restored)").contains("rolled back");

            assertThat(run("rollback", "--connection", "lab", "--host", "gpu host")).isEqualTo(2);
            assertThat(cli.err()).contains("name either the node").contains("not both");
            assertThat(run("verify", "--connection", "lab", "--node", "nowhere")).isEqualTo(2);
            assertThat(cli.err()).contains("no node 'nowhere' on lab (its nodes: vm)");
            assertThat(run("link", "--connection", "Demo lab", "--node", "pve-3090")).isZero();
            assertThat(cli.out()).contains("the Demo lab's simulated host of pve-3090")
                    .contains("--connection \"Demo lab\" --node pve-3090");
        }
    }
}
