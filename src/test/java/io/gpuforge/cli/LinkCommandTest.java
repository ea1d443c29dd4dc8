package io.gpuforge.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gpuforge.app.AppContext;
import io.gpuforge.app.AppPaths;
import io.gpuforge.app.settings.LanguageChoice;
import io.gpuforge.app.settings.ThemeChoice;
import io.gpuforge.domain.connections.ConnectionInfo;
import io.gpuforge.testing.TestContexts;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import io.gpuforge.cli.common.CliOutput;

/** gpuforge link: a saved connection's node gets the host that does its host-level work, and keeps it. */
class LinkCommandTest {

    @TempDir
    Path home;

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        out.getBuffer().setLength(0);
        err.getBuffer().setLength(0);
        return GpuForgeCli.run(args, AppPaths.underHome(home), new CliOutput(new PrintWriter(out), new PrintWriter(err)));
    }

    private AppContext context() throws Exception {
        return TestContexts.create(home, home.resolve("no-sysroot"), ThemeChoice.LIGHT, LanguageChoice.ENGLISH);
    }

    @Test
    void aNodeLinkedToASavedSshHostIsWhereItsHostWorkHappens() throws Exception {
        ConnectionInfo pve;
        ConnectionInfo ssh;
        try (AppContext ctx = context()) {
            pve = ctx.connections().addLibvirt("lab", "test:///default");
            ssh = ctx.connections().addSsh("pve1 shell", "root@pve1.example:22", Optional.empty());
        }
        assertThat(run("link", "--connection", "lab", "--node", "pve1")).as(err.toString()).isZero();
        assertThat(out.toString()).contains("no host linked");

        assertThat(run("link", "--connection", "lab", "--node", "pve1", "--ssh-host", "pve1 shell"))
                .as(err.toString()).isZero();
        assertThat(out.toString()).contains("lab / pve1 -> SSH host pve1 shell (root@pve1.example")
                .doesNotContain("guessed");
        try (AppContext ctx = context()) {
            assertThat(ctx.hostLinks().of(pve, "pve1").orElseThrow().target().key()).isEqualTo("ssh:" + ssh.id());
        }

        assertThat(run("link", "--connection", "lab", "--node", "pve1", "--remove", "--json")).isZero();
        JsonNode j = new ObjectMapper().readTree(out.toString());
        assertThat(j.get("host").isNull()).isTrue();
        assertThat(j.get("guessed").asBoolean()).isFalse();
    }

    @Test
    void aLibvirtHostOverSshIsGuessedUntilConfirmed() throws Exception {
        try (AppContext ctx = context()) {
            ctx.connections().addLibvirt("gpu box", "qemu+ssh://admin@gpubox/system");
        }
        assertThat(run("link", "--connection", "gpu box", "--node", "gpubox", "--json")).isZero();
        JsonNode j = new ObjectMapper().readTree(out.toString());
        assertThat(j.get("host").asText()).isEqualTo("adhoc:admin@gpubox");
        assertThat(j.get("guessed").asBoolean()).isTrue();

        assertThat(run("link", "--connection", "gpu box", "--node", "gpubox", "--local")).isZero();
        assertThat(out.toString()).contains("-> this computer").doesNotContain("guessed");
    }

    @Test
    void wrongNamesAreRefusedWithWhatToDo() throws Exception {
        try (AppContext ctx = context()) {
            ctx.connections().addSsh("shell", "root@h:22", Optional.empty());
        }
        assertThat(run("link", "--connection", "nope", "--node", "n", "--local")).isEqualTo(2);
        assertThat(err.toString()).contains("no saved connection named 'nope'");
        assertThat(run("link", "--connection", "shell", "--node", "n", "--local")).isEqualTo(2);
        assertThat(err.toString()).contains("is an SSH host");
    }
}
