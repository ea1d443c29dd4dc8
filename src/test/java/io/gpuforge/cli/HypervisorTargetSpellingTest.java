package io.gpuforge.cli;

import io.gpuforge.cli.common.CliOutput;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import io.gpuforge.app.AppPaths;
import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;

/**
 * Every command that reaches a hypervisor takes it spelled the same way: a saved {@code --connection NAME}, or on
 * the spot {@code --pve URL} with {@code --fingerprint} and a token on stdin or a password login, or
 * {@code --libvirt URI}; {@code --node} with each. Parsing alone: nothing is reached.
 */
class HypervisorTargetSpellingTest {

    private static final List<List<String>> COMMANDS = List.of(
            List.of("inventory"),
            List.of("iommu"),
            List.of("vm", "list"),
            List.of("vm", "start", "101"),
            List.of("vm", "shutdown", "101"),
            List.of("vm", "reboot", "101"),
            List.of("vm", "stop", "101"),
            List.of("vm", "delete", "101"),
            List.of("vm", "clone", "9000", "cuda-02"),
            List.of("vm", "template", "101"),
            List.of("vm", "config", "101"),
            List.of("vm", "console", "101"),
            List.of("vm", "create", "--template", "ubuntu-cuda", "--name", "x"),
            List.of("vm", "provision", "--template", "ubuntu-cuda", "101"),
            List.of("vm", "remove-snippet", "101"),
            List.of("attach", "--device", "0000:01:00.0", "--vm", "101"),
            List.of("detach", "--device", "0000:01:00.0", "--vm", "101"),
            List.of("passthrough", "--device", "0000:01:00.0", "--vm", "101"),
            List.of("gpu", "list"),
            List.of("gpu", "watch"));

    private static final List<List<String>> SPELLINGS = List.of(
            List.of("--connection", "Demo lab"),
            List.of("--pve", "https://pve1:8006", "--fingerprint", "AA:BB:CC", "--token-stdin"),
            List.of("--pve", "https://pve1:8006", "--pve-user", "root@pam", "--pve-password-stdin"),
            List.of("--libvirt", "qemu:///system"));

    @TempDir
    static Path home;

    static Stream<Arguments> commandsAndSpellings() {
        List<Arguments> out = new ArrayList<>();
        for (List<String> command : COMMANDS) {
            for (List<String> spelling : SPELLINGS) {
                out.add(Arguments.of(String.join(" ", command), command, spelling));
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0} {2}")
    @MethodSource("commandsAndSpellings")
    void eachCommandParsesEachSpellingWithANode(String name, List<String> command, List<String> spelling) {
        List<String> args = new ArrayList<>(command);
        args.addAll(spelling);
        args.addAll(List.of("--node", "pve1"));
        CommandLine cli = GpuForgeCli.commandLine(AppPaths.underHome(home), new CliOutput(new PrintWriter(
                new StringWriter()), new PrintWriter(new StringWriter())), new ByteArrayInputStream(new byte[0]));
        assertThatCode(() -> cli.parseArgs(args.toArray(String[]::new))).as(String.join(" ", args))
                .doesNotThrowAnyException();
    }

    @ParameterizedTest
    @ValueSource(strings = {"iommu", "snapshot", "check", "plan", "apply", "rollback", "verify", "passthrough",
                            "gpu list", "gpu watch", "gpu power-limit"})
    void everyCommandThatTakesSshLogsInWithTheSameOptions(String command) {
        CommandLine sub = cli();
        for (String word : command.split(" ")) {
            sub = sub.getSubcommands().get(word);
        }
        assertThat(sub.getCommandSpec().optionsMap().keySet()).as(command).contains("--ssh", "--known-hosts",
                "--accept-new-host-key", "--identity", "--password-stdin", "--ssh-config", "--no-agent");
        String sysroot = sub.getCommandSpec().findOption("--sysroot").paramLabel();
        assertThat(sysroot).as(command + " --sysroot").isEqualTo(command.startsWith("gpu") ? "DIR" : "DIR|FILE.tar.gz");
    }

    @ParameterizedTest
    @ValueSource(strings = {"inventory", "iommu", "check"})
    void aSnapshotIsASysrootWhereverFactsAreRead(String command) {
        assertThat(cli().getSubcommands().get(command).getCommandSpec().findOption("--sysroot").paramLabel())
                .isEqualTo("DIR|FILE.tar.gz");
    }

    @org.junit.jupiter.api.Test
    void everyCommandHasTheSameOutputSwitches() {
        List<String> lacking = new ArrayList<>();
        walk(cli(), lacking);
        assertThat(lacking).as("commands without --json and --quiet").isEmpty();
    }

    private static void walk(CommandLine c, List<String> lacking) {
        if (c.getSubcommands().isEmpty()) {
            if (!c.getCommandName().equals("help")
                    && !c.getCommandSpec().optionsMap().keySet().containsAll(List.of("--json", "--quiet"))) {
                lacking.add(c.getCommandSpec().qualifiedName());
            }
            return;
        }
        c.getSubcommands().values().stream().distinct().forEach(sub -> walk(sub, lacking));
    }

    private static CommandLine cli() {
        return GpuForgeCli.commandLine(AppPaths.underHome(home), new CliOutput(new PrintWriter(new StringWriter()),
                new PrintWriter(new StringWriter())), new ByteArrayInputStream(new byte[0]));
    }

    static Stream<Arguments> commands() {
        return COMMANDS.stream().map(c -> Arguments.of(String.join(" ", c), c));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("commands")
    void theHelpOfEachCommandNamesTheThreeWays(String name, List<String> command) {
        CommandLine cli = GpuForgeCli.commandLine(AppPaths.underHome(home), new CliOutput(new PrintWriter(
                new StringWriter()), new PrintWriter(new StringWriter())), new ByteArrayInputStream(new byte[0]));
        CommandLine sub = cli;
        for (String word : command) {
            if (sub.getSubcommands().containsKey(word)) {
                sub = sub.getSubcommands().get(word);
            }
        }
        assertThat(sub.getCommandSpec().optionsMap().keySet()).as(name)
                .contains("--connection", "--pve", "--libvirt", "--fingerprint", "--token-stdin", "--node");
    }
}
