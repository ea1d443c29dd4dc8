package io.gpuforge.cli.serve;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.app.AppContext;
import io.gpuforge.app.settings.LanguageChoice;
import io.gpuforge.app.settings.ThemeChoice;
import io.gpuforge.bounded.ChildEnvironment;
import io.gpuforge.domain.telemetry.AlertRule;
import io.gpuforge.testing.CliProcess;
import io.gpuforge.testing.TestContexts;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code gpuforge serve} handed its secrets as scripts and systemd hand them (the vault's passphrase and a Proxmox VE
 * token in variables, a credentials directory) starts nvidia-smi for this computer's GPUs and notify-send for an
 * alert that fires: stand-ins on the PATH write down the environment they got. Neither holds a secret, nor the
 * variables' names; what they need (PATH, the session bus) they still get (issue 59, finding 6).
 */
class ChildEnvironmentTest {

    private static final String PASSPHRASE = "vault-passphrase-in-env-77";
    private static final String TOKEN = "root@pam!ci=0b4d2f6e-1c3a-4e5f-9a7b-8c6d5e4f3a21";

    @TempDir
    Path dir;

    @Test
    void theProcessesServeStartsGetNoneOfItsSecrets() throws Exception {
        Path appHome = dir.resolve("gpuforge");
        try (AppContext ctx = TestContexts.create(appHome, dir.resolve("no-sysroot"), ThemeChoice.LIGHT,
                LanguageChoice.ENGLISH)) {
            ctx.connections().addDemo("Demo lab");
            // fires at once on the simulated GPUs
            ctx.alerts().save(new AlertRule(0, Optional.empty(), AlertRule.Kind.TEMPERATURE, 20, Duration.ZERO, 2,
                    true));
        }
        Path bin = Files.createDirectories(dir.resolve("bin"));
        Path seen = Files.createDirectories(dir.resolve("seen"));
        for (String program : List.of("nvidia-smi", "notify-send")) {
            Path p = bin.resolve(program);
            Files.writeString(p, "#!/bin/sh\nenv > '" + seen.resolve(program) + ".env'\nexit 1\n");
            Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
        Path credentials = Files.createDirectories(dir.resolve("credentials"));
        Map<String, String> env = new HashMap<>();
        env.put("PATH", bin + ":" + System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));
        env.put("GPUFORGE_VAULT_PASSPHRASE", PASSPHRASE);
        env.put("GPUFORGE_PVE_TOKEN", TOKEN);
        env.put("CREDENTIALS_DIRECTORY", credentials.toString());
        env.put("DBUS_SESSION_BUS_ADDRESS", "unix:path=" + dir.resolve("bus"));
        CliProcess cli = new CliProcess(dir.resolve("home"), appHome);
        try (CliProcess.Running serve = cli.start(env, List.of(), "serve")) {
            long until = System.nanoTime() + Duration.ofSeconds(90).toNanos();
            while (!(Files.exists(seen.resolve("nvidia-smi.env")) && Files.exists(seen.resolve("notify-send.env")))) {
                assertThat(System.nanoTime()).as("nvidia-smi and notify-send started: " + serve.err()).isLessThan(until);
                Thread.sleep(200);
            }
            Thread.sleep(300); // the stand-ins' env is written in one go; let it end
        }
        for (String program : List.of("nvidia-smi", "notify-send")) {
            String got = Files.readString(seen.resolve(program + ".env"));
            assertThat(got).as(program + "'s environment").contains("PATH=" + bin).doesNotContain(PASSPHRASE)
                    .doesNotContain(TOKEN).doesNotContain(credentials.toString());
            for (String name : ChildEnvironment.SECRETS) {
                assertThat(got).as(program + "'s environment").doesNotContain(name + "=");
            }
        }
        assertThat(Files.readString(seen.resolve("notify-send.env"))).as("what notify-send needs, it gets")
                .contains("DBUS_SESSION_BUS_ADDRESS=unix:path=" + dir.resolve("bus"));
    }
}
