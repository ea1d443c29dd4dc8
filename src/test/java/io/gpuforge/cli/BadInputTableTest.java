package io.gpuforge.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.app.AppPaths;
import io.gpuforge.cli.common.CliOutput;
import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * Every command given malformed input, as a new user types it (issue 60, step 3): each case answers one line on
 * stderr that names what was wrong (and what is accepted), no stack trace, nothing on stdout, and the exit code the
 * command documents (2 for usage: a malformed value, a name that is not there, a file that is missing, a directory,
 * a FIFO or a device). {@code .ci/run} runs this table.
 */
class BadInputTableTest {

    @TempDir
    static Path home;
    @TempDir
    static Path files;
    private static Path fifo;
    private static Path dir;

    /** {@code exit}: the code; {@code says}: what the one line must hold; {@code args}: the command as typed. */
    private record Case(int exit, String says, String... args) {
        @Override
        public String toString() {
            return "gpuforge " + String.join(" ", args);
        }
    }

    @BeforeAll
    static void lab() throws Exception {
        CliHarness cli = new CliHarness(home);
        assertThat(cli.run(new String[] {"connection", "add", "Demo lab", "--demo"})).as(cli.err()).isZero();
        dir = Files.createDirectories(files.resolve("a-directory"));
        fifo = files.resolve("a-fifo");
        Process p = new ProcessBuilder("mkfifo", fifo.toString()).start();
        assertThat(p.waitFor()).as("mkfifo").isZero();
    }

    private List<Case> cases() {
        String missing = files.resolve("missing").toString();
        String d = dir.toString();
        String f = fifo.toString();
        String[] lab = {"--connection", "Demo lab"};
        List<Case> c = new ArrayList<>();
        // files named wrong: missing, a directory, a FIFO, a device
        c.add(new Case(2, "--listing " + missing + ": no such file", "iommu", "--listing", missing));
        c.add(new Case(2, "--listing " + d + " is a directory", "iommu", "--listing", d));
        c.add(new Case(2, "--listing " + f + " is a FIFO", "iommu", "--listing", f));
        c.add(new Case(2, "--listing /dev/zero is a character device", "iommu", "--listing", "/dev/zero"));
        c.add(new Case(2, "--import " + missing + ": no such file", "vm", "templates", "--import", missing));
        c.add(new Case(2, "--import " + d + " is a directory", "vm", "templates", "--import", d));
        c.add(new Case(2, "--tariff " + f + " is a FIFO", "gpu", "energy", "--since", "1h", "--tariff", f));
        c.add(new Case(2, "--sysroot " + missing + ": no such directory", "check", "--sysroot", missing, "--device",
                "0000:01:00.0"));
        c.add(new Case(2, "--sysroot " + f + " is a FIFO, not a directory", "verify", "--sysroot", f));
        c.add(new Case(2, "--output " + d + " is a directory", "snapshot", "--local", "--output", d));
        c.add(new Case(1, d + " is a directory: give a log file", "diagnose", "--log", d));
        c.add(new Case(1, missing + ": no such file", "diagnose", "--log", missing));
        // names that are not there: each says which there are, or where to look
        c.add(new Case(2, "no saved connection named 'nosuch'", "inventory", "--connection", "nosuch"));
        c.add(new Case(2, "no node 'nosuch' on Demo lab (its nodes: pve-4090, pve-3090, pve-store)",
                cat(new String[] {"inventory"}, lab, "--node", "nosuch")));
        c.add(new Case(2, "no node 'nosuch' on Demo lab", cat(new String[] {"iommu"}, lab, "--node", "nosuch")));
        c.add(new Case(2, "no node 'nosuch' on Demo lab", cat(new String[] {"gpu", "list"}, lab, "--node", "nosuch")));
        c.add(new Case(2, "no VM 'nosuch' on Demo lab", cat(new String[] {"gpu", "list"}, lab, "--vm", "nosuch")));
        c.add(new Case(2, "no node 'nosuch' on Demo lab", cat(new String[] {"share", "list"}, lab, "--node",
                "nosuch")));
        c.add(new Case(2, "no node 'nosuch' on Demo lab", cat(new String[] {"link"}, lab, "--node", "nosuch",
                "--ssh", "root@gpu1")));
        c.add(new Case(2, "no VM 'nosuch' on Demo lab", cat(new String[] {"vm", "start", "nosuch"}, lab)));
        c.add(new Case(2, "no node 'nosuch' on Demo lab", cat(new String[] {"vm", "start", "101"}, lab, "--node",
                "nosuch")));
        c.add(new Case(2, "no VM 'nosuch' on Demo lab", cat(new String[] {"vm", "config", "nosuch"}, lab)));
        c.add(new Case(2, "no VM 'nosuch'", cat(new String[] {"passthrough"}, lab, "--device", "0000:02:00.0",
                "--vm", "nosuch", "--node", "pve-4090")));
        c.add(new Case(2, "no VM 'nosuch'", cat(new String[] {"attach"}, lab, "--vm", "nosuch", "--device",
                "0000:02:00.0")));
        c.add(new Case(2, "no VM 'nosuch' on Demo lab", cat(new String[] {"diagnose"}, lab, "--vm", "nosuch")));
        c.add(new Case(2, "no container 999 on pve-3090 (its containers: 201)", cat(new String[] {"ct", "start",
            "999"}, lab, "--node", "pve-3090")));
        c.add(new Case(2, "no template 'nosuch'", cat(new String[] {"vm", "create"}, lab, "--node", "pve-3090",
                "--name", "x", "--template", "nosuch")));
        c.add(new Case(2, "no alert rule 9999", "alert", "remove", "9999"));
        c.add(new Case(2, "no saved connection named 'nosuch'", "connection", "remove", "nosuch"));
        c.add(new Case(2, "no saved connection named 'nosuch'", "connection", "test", "nosuch"));
        // malformed values: each says what is accepted
        c.add(new Case(2, "--memory: A VM needs at least 64 MiB", cat(new String[] {"vm", "create"}, lab, "--node",
                "pve-3090", "--name", "x", "--template", "ubuntu-cuda", "--memory", "-5", "--ssh-key", "/dev/null")));
        c.add(new Case(2, "--name: A VM name is letters, digits", cat(new String[] {"vm", "create"}, lab, "--node",
                "pve-3090", "--name", "bad name!", "--template", "ubuntu-cuda")));
        c.add(new Case(2, "--count must be 1 or more, not 0", cat(new String[] {"gpu", "watch"}, lab, "--count",
                "0")));
        c.add(new Case(2, "'abc' is not a long", cat(new String[] {"gpu", "watch"}, lab, "--count", "abc")));
        c.add(new Case(2, "--interval takes 0.2 to 10 seconds", cat(new String[] {"gpu", "watch"}, lab,
                "--interval", "0")));
        c.add(new Case(2, "choose --csv or --json, not both", cat(new String[] {"gpu", "watch", "--csv", "--json"},
                lab)));
        c.add(new Case(2, "--watts takes a positive number of watts", cat(new String[] {"gpu", "power-limit"}, lab,
                "--gpu", "0000:01:00.0", "--watts", "-5")));
        c.add(new Case(2, "No GPU 'nonsense' there", cat(new String[] {"gpu", "power-limit"}, lab, "--gpu",
                "nonsense", "--watts", "300")));
        c.add(new Case(2, "'yesterday' is neither an ISO time", "gpu", "energy", "--since", "yesterday"));
        c.add(new Case(2, "not a PCI address: 'zz'", cat(new String[] {"share", "check"}, lab, "--node", "pve-3090",
                "--gpu", "zz")));
        c.add(new Case(2, "not a PCI address: 'zz'", cat(new String[] {"passthrough"}, lab, "--device", "zz", "--vm",
                "101")));
        c.add(new Case(2, "'abc' is not an int", cat(new String[] {"ct", "add-gpu", "abc"}, lab, "--node", "pve-3090",
                "--gpu", "0000:04:00.0")));
        c.add(new Case(2, "--pve needs the cluster's https URL", "connection", "add", "X", "--pve", "notaurl"));
        c.add(new Case(2, "Not a libvirt URI: 'notauri'", "connection", "add", "Y", "--libvirt", "notauri"));
        c.add(new Case(2, "--url takes an http or https URL", "alert", "webhook", "--url", "notaurl"));
        c.add(new Case(2, "--prometheus takes HOST:PORT", "serve", "--prometheus", "127.0.0.1:99999"));
        // missing and unknown options and commands: one line, and where the help is
        c.add(new Case(2, "name the node with --node (Demo lab has pve-4090, pve-3090, pve-store)",
                cat(new String[] {"share", "check"}, lab, "--gpu", "0000:04:00.0")));
        c.add(new Case(2, "Missing required option: '--gpu=BDF' (gpuforge share check --help)", "share", "check"));
        c.add(new Case(2, "Missing required parameter: 'VM' (gpuforge vm delete --help)", cat(new String[] {"vm",
            "delete"}, lab)));
        c.add(new Case(2, "Unknown option: '--nosuchoption' (gpuforge gpu --help)", "gpu", "--nosuchoption"));
        c.add(new Case(2, "Unmatched argument at index 0: 'nosuchcommand'", "nosuchcommand"));
        c.add(new Case(2, "give the logs (--log FILE) or the VM", "diagnose"));
        return c;
    }

    @Test
    void everyBadInputIsAnsweredInOneLineWithItsDocumentedExitCode() throws Exception {
        List<Case> cases = cases();
        assertThat(cases).as("a table of at least 40 cases").hasSizeGreaterThanOrEqualTo(40);
        List<String> wrong = new ArrayList<>();
        for (Case c : cases) {
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            int exit = GpuForgeCli.run(c.args(), AppPaths.underHome(home), new CliOutput(new PrintWriter(out),
                    new PrintWriter(err)), new ByteArrayInputStream(new byte[0]), System.getenv());
            List<String> lines = err.toString().lines().filter(l -> !l.isBlank()).toList();
            String name = c.toString();
            if (exit != c.exit()) {
                wrong.add(name + ": exit " + exit + ", not " + c.exit() + ": " + err);
            } else if (!documented(c.args()).contains(exit)) {
                wrong.add(name + ": exit " + exit + " is not among its documented codes " + documented(c.args()));
            } else if (lines.size() != 1) {
                wrong.add(name + ": " + lines.size() + " lines on stderr, not one: " + err);
            } else if (!lines.get(0).contains(c.says())) {
                wrong.add(name + ": says '" + lines.get(0) + "', not '" + c.says() + "'");
            } else if (!lines.get(0).startsWith("gpuforge") || lines.get(0).matches(".*(Exception|\\tat ).*")) {
                wrong.add(name + ": not the command's own line: " + lines.get(0));
            } else if (!out.toString().isBlank()) {
                wrong.add(name + ": printed on stdout: " + out);
            }
        }
        assertThat(wrong).as("cases answered otherwise than documented").isEmpty();
    }

    /** A VM that never failed to start: "no failed start found", with what was read, in one line. */
    @Test
    void aVmThatNeverFailedHasNoFailedStartFound() {
        CliHarness cli = new CliHarness(home);
        int exit = cli.run(new String[] {"diagnose", "--connection", "Demo lab", "--vm", "train-01"});
        assertThat(exit).as(cli.err()).isEqualTo(4);
        assertThat(documented(new String[] {"diagnose"})).contains(4);
        assertThat(cli.err()).isEmpty();
        assertThat(cli.out().strip()).startsWith("no failed start found: VM 101 has none among the tasks of pve-4090;"
                + " read the configuration of VM 101").doesNotContain("\n").doesNotContain("Cause:");
    }

    /** The exit codes the command's help and docs/cli.md give: its own list, else 0, 1 and 2. */
    private static Set<Integer> documented(String[] args) {
        CommandLine c = GpuForgeCli.commandLine(AppPaths.underHome(Path.of("/nonexistent")), new CliOutput(
                new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter())),
                new ByteArrayInputStream(new byte[0]));
        for (String a : args) {
            CommandLine sub = c.getSubcommands().get(a);
            if (sub == null) {
                break;
            }
            c = sub;
        }
        Set<Integer> out = new TreeSet<>();
        c.getCommandSpec().usageMessage().exitCodeList().keySet().forEach(k -> out.add(Integer.parseInt(k.strip())));
        return out.isEmpty() ? Set.of(0, 1, 2) : out;
    }

    private static String[] cat(String[] a, String[] b, String... c) {
        String[] out = Arrays.copyOf(a, a.length + b.length + c.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        System.arraycopy(c, 0, out, a.length + b.length, c.length);
        return out;
    }
}
