package io.gpuforge.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.gpuforge.app.AppContext;
import io.gpuforge.app.settings.LanguageChoice;
import io.gpuforge.app.settings.ThemeChoice;
import io.gpuforge.hypervisor.libvirt.LibvirtCloneTest;
import io.gpuforge.testing.TestContexts;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** gpuforge connection list|add|remove|test, in process: the connections the window's tree shows. */
class ConnectionCliTest {

    @TempDir
    Path home;

    private CliHarness cli;

    private int run(String... args) {
        if (cli == null) {
            cli = new CliHarness(home);
        }
        return cli.run(args);
    }

    @Test
    void connectionsAddedOnTheCommandLineAreTheWindowsAndAreTestedAndRemoved() throws Exception {
        Path dir = Files.createDirectories(home.resolve("kvm"));
        String uri = LibvirtCloneTest.hostUri(dir, Files.createDirectories(dir.resolve("pool")));
        assertThat(run("connection", "add", "Demo lab", "--demo")).as(cli.err()).isZero();
        assertThat(run("connection", "add", "kvm-lab", "--libvirt", uri)).as(cli.err()).isZero();
        assertThat(cli.out()).contains("saved kvm-lab (libvirt " + uri + ")");
        assertThat(run("connection", "add", "gpu1 shell", "--ssh", "admin@gpu1.lab:2222", "--sudo", "--json"))
                .as(cli.err()).isZero();
        assertThat(cli.json().get("kind").asText()).isEqualTo("ssh");
        assertThat(run("connection", "add", "kvm-lab", "--libvirt", "qemu:///system")).isEqualTo(2);
        assertThat(cli.err()).contains("kvm-lab");

        try (AppContext ctx = TestContexts.create(home, home.resolve("sysroot"), ThemeChoice.LIGHT, LanguageChoice.ENGLISH)) {
            assertThat(ctx.connections().all()).extracting(c -> c.name()).containsExactlyInAnyOrder("Demo lab",
                    "kvm-lab", "gpu1 shell");
            assertThat(ctx.connections().all()).filteredOn(c -> c.name().equals("gpu1 shell")).singleElement()
                    .satisfies(c -> {
                        assertThat(c.address()).isEqualTo("gpu1.lab:2222");
                        assertThat(c.username()).isEqualTo("admin");
                        assertThat(c.options().sudo()).isTrue();
                    });
        }

        assertThat(run("connection", "test", "Demo lab", "--json")).as(cli.err()).isZero();
        JsonNode demo = cli.json();
        assertThat(demo.get("ok").asBoolean()).isTrue();
        assertThat(demo.get("nodes").asInt()).isEqualTo(3);
        assertThat(run("connection", "test", "kvm-lab")).as(cli.err()).isZero();
        assertThat(cli.out()).startsWith("kvm-lab: ").contains(", 1 node, ").doesNotContain("(s)");

        assertThat(run("connection", "remove", "kvm-lab")).as(cli.err()).isZero();
        assertThat(run("connection", "list", "--json")).isZero();
        assertThat(cli.json().get("connections")).extracting(n -> n.get("name")
                .asText()).containsExactlyInAnyOrder("Demo lab", "gpu1 shell");
        assertThat(run("connection", "test", "kvm-lab")).isEqualTo(2);
        assertThat(cli.err()).contains("no saved connection named 'kvm-lab'");
    }
}
