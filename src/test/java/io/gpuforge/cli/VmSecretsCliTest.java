package io.gpuforge.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gpuforge.app.AppContext;
import io.gpuforge.app.AppPaths;
import io.gpuforge.app.settings.LanguageChoice;
import io.gpuforge.app.settings.ThemeChoice;
import io.gpuforge.domain.tasks.TaskRecord;
import io.gpuforge.testing.TestContexts;
import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import io.gpuforge.cli.common.CliOutput;

/**
 * A template's secret variable given to {@code gpuforge vm create} from standard input or a file, on the Demo lab:
 * it reaches the VM (whose user-data snippet is removed after the first boot) and no output or task log, and a
 * secret on the command line or in a file others can read is warned about.
 */
class VmSecretsCliTest {

    private static final String MUNGE = "bXVuZ2Uta2V5LW9mLXRoZS1jbHVzdGVyLTAxMjM0NTY3ODk=";
    @TempDir
    Path home;
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();
    private Path key;

    @BeforeEach
    void demoLab() throws Exception {
        key = Files.writeString(home.resolve("id.pub"), "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGq8T9mJq3fNvH5c7kK3bA ada@lab\n");
        try (AppContext ctx = TestContexts.create(home, home.resolve("sysroot"), ThemeChoice.LIGHT, LanguageChoice.ENGLISH)) {
            ctx.connections().addDemo("Demo lab");
        }
    }

    private int run(String stdin, String... args) {
        out.getBuffer().setLength(0);
        err.getBuffer().setLength(0);
        return GpuForgeCli.run(args, AppPaths.underHome(home), new CliOutput(new PrintWriter(out), new PrintWriter(err)),
                new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)));
    }

    private String[] create(String name, String... more) {
        return Stream.concat(Stream.of("vm", "create", "--connection", "Demo lab", "--node", "pve-4090", "--template",
                "slurm-gpu-worker", "--name", name, "--memory", "4096", "--disk", "40", "--user", "ada", "--ssh-key",
                key.toString(), "--password-stdin", "--var", "SLURM_CONTROLLER=slurmctl.lab", "--json"), Stream.of(more))
                .toArray(String[]::new);
    }

    @Test
    void aSecretFromStandardInputReachesNoOutputNorTaskLogAndTheSnippetGoesAfterTheFirstBoot() throws Exception {
        int code = run("pw-from-stdin\n" + MUNGE + "\n", create("slurm-01", "--var", "MUNGE_KEY=@-", "--start"));
        assertThat(code).as(err.toString() + out).isZero();
        JsonNode r = new ObjectMapper().readTree(out.toString());
        assertThat(r.get("userData").get("way").asText()).isEqualTo("snippet");
        assertThat(r.get("snippet").get("volume").asText()).matches("local:snippets/gpuforge-[0-9]+-slurm-01-user\\.yaml");
        assertThat(r.get("snippet").get("removed").asBoolean()).as(r.get("snippet").toString()).isTrue();
        assertThat(out.toString() + err).as("no output shows the key or the password").doesNotContain(MUNGE)
                .doesNotContain("pw-from-stdin");
        assertThat(err.toString()).as("no warning: nothing secret was on the command line").doesNotContain("secret").doesNotContain("readable by other users");
        try (AppContext ctx = TestContexts.create(home, home.resolve("sysroot"), ThemeChoice.LIGHT, LanguageChoice.ENGLISH)) {
            assertThat(ctx.taskLog().recent(50)).as("the create and the snippet's removal are logged")
                    .anyMatch(t -> t.action().equals("vm.snippet-cleanup") && t.status() == TaskRecord.Status.OK);
            for (TaskRecord t : ctx.taskLog().recent(50)) {
                assertThat(String.join("\n", t.log()) + t.description() + t.statusText()).as("task log")
                        .doesNotContain(MUNGE).doesNotContain("pw-from-stdin");
            }
        }
    }

    @Test
    void standardInputThatEndsBeforeTheSecretsLineIsRefused() {
        assertThat(run("pw-only\n", create("slurm-05", "--var", "MUNGE_KEY=@-"))).isEqualTo(2);
        assertThat(err.toString()).contains("--var MUNGE_KEY=@-: standard input ended before its line");
    }

    @Test
    void aSecretOnTheCommandLineOrInAFileOthersCanReadIsWarnedAbout() throws Exception {
        Path values = Files.writeString(home.resolve("slurm.env"), "# the cluster's key\nMUNGE_KEY=" + MUNGE + "\n");
        Files.setPosixFilePermissions(values, PosixFilePermissions.fromString("rw-r--r--"));
        assertThat(run("pw\n", create("slurm-02", "--var-file", values.toString()))).as(err.toString() + out).isZero();
        assertThat(err.toString()).contains("warning: " + values + " is readable by other users", "chmod 600");

        Files.setPosixFilePermissions(values, PosixFilePermissions.fromString("rw-------"));
        assertThat(run("pw\n", create("slurm-03", "--var-file", values.toString()))).isZero();
        assertThat(err.toString()).doesNotContain("secret").doesNotContain("readable by other users");

        assertThat(run("pw\n", create("slurm-04", "--var", "MUNGE_KEY=" + MUNGE))).as(err.toString()).isZero();
        assertThat(err.toString()).contains("warning: --var MUNGE_KEY=… puts a secret on the command line",
                "MUNGE_KEY=@-").doesNotContain(MUNGE);
        assertThat(out.toString()).doesNotContain(MUNGE);
    }

    @Test
    void aVmNotStartedKeepsItsSnippetAndIsToldTheCommandThatRemovesIt() throws Exception {
        assertThat(run("pw\n" + MUNGE + "\n", create("slurm-06", "--var", "MUNGE_KEY=@-"))).as(err.toString()).isZero();
        JsonNode r = new ObjectMapper().readTree(out.toString());
        String id = r.get("vm").get("id").asText();
        assertThat(r.get("snippet").get("removed").asBoolean()).as("no first boot yet: the snippet waits for it")
                .isFalse();
        assertThat(r.get("notes").toString()).contains("root-only, 0600", "gpuforge vm remove-snippet " + id
                + " --node pve-4090 --connection 'Demo lab'");
        assertThat(out.toString() + err).doesNotContain(MUNGE);
    }

    @Test
    void removeSnippetSaysSoForAVmWithoutOne() {
        assertThat(run("", "vm", "remove-snippet", "train-01", "--connection", "Demo lab")).as(err.toString()).isZero();
        assertThat(out.toString()).contains("has no cloud-init snippet of GPUForge's");
    }
}
