package io.gpuforge.cli.serve;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.app.AppPaths;
import io.gpuforge.cli.GpuForgeCli;
import io.gpuforge.cli.common.CliOutput;
import io.gpuforge.cli.common.CliVault;
import io.gpuforge.testing.Tools;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The systemd units the packages install (installer/linux/systemd): systemd's own check finds nothing in them, their
 * ExecStart is a command line {@code gpuforge serve} takes, and the system unit keeps its secrets out of its command
 * line and environment (the vault's passphrase comes as a credential) with its hardening in place. The installed
 * unit itself is verified, started, scraped and stopped by .ci/service-check after the .deb is installed.
 */
class ServiceUnitsTest {

    private static final Path SYSTEM = Path.of("installer/linux/systemd/system/gpuforge.service");
    private static final Path USER = Path.of("installer/linux/systemd/user/gpuforge.service");

    @TempDir
    Path dir;

    @Test
    void systemdFindsNothingInEitherUnit() throws Exception {
        Tools.require("systemd-analyze", "systemd");
        Path gpuforge = dir.resolve("gpuforge");
        Files.writeString(gpuforge, "#!/bin/sh\nexit 0\n");
        Files.setPosixFilePermissions(gpuforge, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path runtime = Files.createDirectories(dir.resolve("runtime"));
        Files.setPosixFilePermissions(runtime, PosixFilePermissions.fromString("rwx------"));
        for (Path unit : List.of(SYSTEM, USER)) {
            // the command the package installs is not on this machine: a stand-in at another path
            Path copy = Files.createDirectories(dir.resolve(unit.getParent().getFileName())).resolve("gpuforge.service");
            Files.writeString(copy, Files.readString(unit).replace("/opt/gpuforge/bin/gpuforge", gpuforge.toString()));
            List<String> command = new ArrayList<>(List.of("systemd-analyze"));
            if (unit == USER) {
                command.add("--user");
            }
            command.addAll(List.of("verify", copy.toString()));
            ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
            pb.environment().put("XDG_RUNTIME_DIR", runtime.toString());
            Process p = pb.start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(p.exitValue()).as(unit + ": " + out).isZero();
            assertThat(out).as("systemd-analyze verify " + unit + ": no warning either").isBlank();
        }
    }

    @Test
    void theirExecStartIsACommandLineServeTakes() throws Exception {
        for (Path unit : List.of(SYSTEM, USER)) {
            List<String> words = new ArrayList<>(Arrays.asList(value(unit, "ExecStart").split(" +")));
            assertThat(words.remove(0)).isEqualTo("/opt/gpuforge/bin/gpuforge");
            CommandLine cli = GpuForgeCli.commandLine(AppPaths.underHome(dir), new CliOutput(
                    new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter())),
                    new ByteArrayInputStream(new byte[0]));
            CommandLine.ParseResult parsed = cli.parseArgs(words.toArray(String[]::new));
            assertThat(parsed.subcommand().commandSpec().name()).isEqualTo("serve");
            if (unit == SYSTEM) {
                ServeCommand serve = (ServeCommand) parsed.subcommand().commandSpec().userObject();
                assertThat(serve.prometheus).as("the endpoint the README and the CI's scrape name")
                        .isEqualTo("127.0.0.1:9835");
            }
        }
    }

    @Test
    void theSystemServiceGetsItsPassphraseAsACredentialAndIsHardened() throws IOException {
        String unit = Files.readString(SYSTEM);
        String state = value(SYSTEM, "StateDirectory");
        assertThat(value(SYSTEM, "Environment")).isEqualTo(AppPaths.HOME_VARIABLE + "=/var/lib/" + state);
        assertThat(value(SYSTEM, "User")).isEqualTo("gpuforge").isEqualTo(value(SYSTEM, "Group"));
        assertThat(value(SYSTEM, "LoadCredential")).isEqualTo(CliVault.CREDENTIAL + ":/etc/gpuforge/vault-passphrase");
        for (String line : unit.lines().filter(l -> l.startsWith("Environment") || l.startsWith("ExecStart")).toList()) {
            assertThat(line.toLowerCase(Locale.ROOT)).as("no secret on the command line or in the environment")
                    .doesNotContain("passphrase", "password", "token", "secret");
        }
        assertThat(unit).contains("\nProtectSystem=strict\n", "\nNoNewPrivileges=yes\n", "\nPrivateTmp=yes\n",
                "\nProtectHome=yes\n", "\nCapabilityBoundingSet=\n").doesNotContain("PrivateDevices=yes");
        assertThat(value(USER, "ExecStart")).as("the user service: the window's own store and keyring")
                .isEqualTo("/opt/gpuforge/bin/gpuforge serve");
        assertThat(Files.readString(USER)).doesNotContain("User=", "LoadCredential");
    }

    /**
     * systemd's own score of the system unit's exposure ({@code systemd-analyze security --offline}, 0 best, 10 worst):
     * 3.5 before the review of issue 59, at most 2.0 now (system calls filtered, other users' processes hidden, the
     * NVIDIA devices only, the mounts private), and a start that keeps failing is given up after 5 tries.
     */
    @Test
    void theSystemUnitsExposureIsLowAndAFailingStartIsGivenUp() throws Exception {
        Tools.require("systemd-analyze", "systemd");
        Path copy = Files.createDirectories(dir.resolve("system")).resolve("gpuforge.service");
        Files.writeString(copy, Files.readString(SYSTEM).replace("/opt/gpuforge/bin/gpuforge", "/bin/true"));
        Process p = new ProcessBuilder("systemd-analyze", "security", "--offline=true", "--no-pager", copy.toString())
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("Overall exposure level for gpuforge.service: "
                + "(\\d+\\.\\d)").matcher(out);
        assertThat(m.find()).as(out).isTrue();
        assertThat(Double.parseDouble(m.group(1))).as("exposure: " + out).isLessThanOrEqualTo(2.0);
        String unit = Files.readString(SYSTEM);
        assertThat(unit).contains("\nSystemCallFilter=@system-service\n", "\nProtectProc=invisible\n",
                "\nDevicePolicy=closed\n", "\nDeviceAllow=char-nvidia* rw\n", "\nUMask=0077\n");
        assertThat(Integer.parseInt(value(SYSTEM, "StartLimitBurst"))).isBetween(1, 10);
        assertThat(value(SYSTEM, "StartLimitIntervalSec")).isNotBlank();
    }

    /** The admin's way in runs the command in a session of its own, its stdin kept, its credentials cleaned up. */
    @Test
    void theAdminsScriptGivesTheServiceUserNoTerminalOfRoots() throws IOException {
        String script = Files.readString(Path.of("installer/linux/gpuforge-service"));
        assertThat(script).contains("setsid -w runuser -u \"$user\"").contains("<&3 3<&- &")
                .contains("kill -TERM \"-$child\"").contains("trap 'rm -rf \"$credentials\"' EXIT")
                .contains("kill -0 \"$pid\" 2>/dev/null || rm -rf \"$old\"");
    }

    /** The one assignment of {@code key} in the unit. */
    private static String value(Path unit, String key) throws IOException {
        List<String> values = Files.readString(unit).lines().filter(l -> l.startsWith(key + "="))
                .map(l -> l.substring(key.length() + 1)).toList();
        assertThat(values).as(key + " in " + unit).hasSize(1);
        return values.get(0);
    }
}
