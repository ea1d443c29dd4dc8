package io.gpuforge.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.demo.PveSimulator;
import io.gpuforge.demo.SimCluster;
import io.gpuforge.testing.CliProcess;
import io.gpuforge.testing.SecretScan;
import io.gpuforge.testing.Tools;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The command lines of every process the {@code gpuforge} command starts, and its own, while secrets go through it:
 * a Proxmox VE login with a password (on stdin), and a VM create on the Demo lab with a password and a template's
 * secret variable (on stdin), started, its setup run and its snippet removed. {@code strace -f} records every
 * {@code execve} with its whole argument list; no secret is in one.
 */
class SecretsCommandLineScanTest {

    private static final String VM_PASSWORD = "vm-Pa55word-cl42";
    private static final String MUNGE_KEY = "bXVuZ2Uta2V5LW9mLXRoZS1jbWRsaW5lLXNjYW4tMDEyMzQ1Njc4OWFi";

    @TempDir
    Path dir;

    @Test
    void noSecretIsOnTheCommandLineOfAnyProcessGpuforgeStarts() throws Exception {
        Tools.require("strace", "strace");
        Path trace = dir.resolve("execve.trace");
        Path key = Files.writeString(dir.resolve("id.pub"), "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGq8T9mJq3fNvH5c7kK3bA"
                + " ada@lab\n");
        CliProcess cli = new CliProcess(dir.resolve("user-home"), dir.resolve("gpuforge"));
        CliProcess traced = cli.wrappedIn("strace", "-f", "-qq", "-s", "1000000", "-e", "trace=execve", "-e",
                "signal=none", "-o", trace.toString());
        try (PveSimulator sim = new PveSimulator(SimCluster.demo())) {
            CliProcess.Result login = traced.run(Map.of(), sim.password() + "\n", "inventory", "--pve",
                    sim.url(), "--fingerprint", sim.certificateFingerprint(), "--pve-user", "root@pam",
                    "--pve-password-stdin", "--json");
            assertThat(login.exit()).as(login.err()).isZero();
            String loginTrace = Files.readString(trace);

            assertThat(cli.run(Map.of(), "", "connection", "add", "Demo lab", "--demo").exit()).isZero();
            CliProcess.Result create = traced.run(Map.of(), VM_PASSWORD + "\n" + MUNGE_KEY + "\n", "vm", "create",
                    "--connection", "Demo lab", "--node", "pve-4090", "--template", "slurm-gpu-worker", "--name",
                    "cl-01", "--memory", "4096", "--disk", "40", "--user", "ada", "--ssh-key", key.toString(),
                    "--password-stdin", "--var", "SLURM_CONTROLLER=slurmctl.lab", "--var", "MUNGE_KEY=@-", "--start");
            assertThat(create.exit()).as(create.err() + create.out()).isZero();
            assertThat(create.out()).contains("Removed");
            String createTrace = Files.readString(trace);

            SecretScan scan = new SecretScan().secret("the Proxmox VE password", sim.password())
                    .secret("the VM password", VM_PASSWORD).secret("the template's secret variable", MUNGE_KEY);
            for (String line : (loginTrace + "\n" + createTrace).split("\n")) {
                scan.text("a command line", line);
            }
            assertThat(createTrace).as("the processes are recorded: the JVM and the simulated node's shells")
                    .contains("execve(\"" + Path.of(System.getProperty("java.home"), "bin", "java"))
                    .containsPattern("execve\\(\"[^\"]*/sh\"");
            int lines = (loginTrace + "\n" + createTrace).split("\n").length;
            scan.report(Path.of("target", "secrets-cmdline-scan.txt"), lines);
            assertThat(scan.found()).as("secrets on a command line among %d execve lines", lines).isEmpty();
        }
    }
}
