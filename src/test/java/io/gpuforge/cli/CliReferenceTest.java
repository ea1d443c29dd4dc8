package io.gpuforge.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.app.AppPaths;
import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgGroupSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;
import io.gpuforge.cli.common.CliOutput;

/**
 * {@code docs/cli.md}, the table of every command with its options and exit codes, is made from picocli's model of
 * the commands: this test fails when the file and the code differ, so the table cannot drift from what the command
 * takes. {@code -Dgpuforge.writeCliReference=true} writes it anew.
 */
class CliReferenceTest {

    static final Path FILE = Path.of("docs", "cli.md");
    static final String DEFAULT_EXIT_CODES = "0 ok · 1 error · 2 usage";

    @TempDir
    Path home;

    @Test
    void docsCliMdIsTheTableOfTheCommandsAsTheCodeDeclaresThem() throws Exception {
        String table = markdown(GpuForgeCli.commandLine(AppPaths.underHome(home), new CliOutput(new PrintWriter(
                new StringWriter()), new PrintWriter(new StringWriter())), new ByteArrayInputStream(new byte[0])));
        if (Boolean.getBoolean("gpuforge.writeCliReference")) {
            Files.createDirectories(FILE.getParent());
            Files.writeString(FILE, table);
        }
        assertThat(FILE).as("docs/cli.md: run mvn test -Dtest=CliReferenceTest -Dgpuforge.writeCliReference=true")
                .exists();
        assertThat(Files.readString(FILE, StandardCharsets.UTF_8)).as("docs/cli.md is not the commands' table: run"
                + " mvn test -Dtest=CliReferenceTest -Dgpuforge.writeCliReference=true and commit it").isEqualTo(table);
        assertThat(table).contains("| `gpuforge vm create` |", "`--token-stdin`", "`--connection NAME`",
                "| `gpuforge connection add` |");
    }

    /**
     * The exit codes in docs/cli.md are the code's: every code above 2 that a command's source returns (a literal, a
     * switch arm, a named constant) is in the exit code list a command of that source declares.
     */
    @Test
    void everyExitCodeACommandReturnsIsDocumented() throws Exception {
        CommandLine root = GpuForgeCli.commandLine(AppPaths.underHome(home), new CliOutput(new PrintWriter(
                new StringWriter()), new PrintWriter(new StringWriter())), new ByteArrayInputStream(new byte[0]));
        List<CommandLine> all = new ArrayList<>();
        collect(root, all);
        java.util.Map<Path, java.util.Set<Integer>> documented = new java.util.HashMap<>();
        for (CommandLine c : all) {
            Class<?> type = c.getCommandSpec().userObject().getClass();
            while (type.getEnclosingClass() != null) {
                type = type.getEnclosingClass();
            }
            Path source = Path.of("src", "main", "java", type.getName().replace('.', '/') + ".java");
            java.util.Set<Integer> codes = documented.computeIfAbsent(source, k -> new java.util.TreeSet<>());
            c.getCommandSpec().usageMessage().exitCodeList().keySet().forEach(k -> codes.add(Integer.parseInt(
                    k.strip())));
        }
        List<String> undocumented = new ArrayList<>();
        int scanned = 0;
        for (java.util.Map.Entry<Path, java.util.Set<Integer>> e : documented.entrySet()) {
            if (!Files.exists(e.getKey())) {
                continue;
            }
            String text = Files.readString(e.getKey());
            scanned++;
            java.util.Map<String, Integer> constants = new java.util.HashMap<>();
            java.util.regex.Matcher k = java.util.regex.Pattern.compile("static final int ([A-Z_]+) = (\\d+);")
                    .matcher(text);
            while (k.find()) {
                constants.put(k.group(1), Integer.parseInt(k.group(2)));
            }
            java.util.regex.Matcher r = java.util.regex.Pattern.compile("(?:return|->) (\\d+|[A-Z_]+);").matcher(text);
            while (r.find()) {
                Integer code = r.group(1).matches("\\d+") ? Integer.valueOf(r.group(1)) : constants.get(r.group(1));
                if (code != null && code > 2 && !e.getValue().contains(code)) {
                    undocumented.add(e.getKey() + " returns " + code + " (" + r.group() + "), its commands document "
                            + e.getValue());
                }
            }
        }
        assertThat(scanned).as("command sources read").isGreaterThan(20);
        assertThat(undocumented).isEmpty();
    }

    static String markdown(CommandLine root) {
        StringBuilder md = new StringBuilder();
        md.append("# The `gpuforge` command\n\n")
                .append("Made from the code's own declarations by `CliReferenceTest`, which fails when this table and the")
                .append(" commands differ\n(`mvn test -Dtest=CliReferenceTest -Dgpuforge.writeCliReference=true`")
                .append(" writes it anew). Every command also takes\n`--help`; `gpuforge COMMAND --help` says more.")
                .append(" Secrets are read from stdin, a file or the environment, never from\nthe command line.\n\n")
                .append("| command | what it does | options and arguments | exit codes |\n| --- | --- | --- | --- |\n");
        List<CommandLine> all = new ArrayList<>();
        collect(root, all);
        for (CommandLine c : all) {
            CommandSpec spec = c.getCommandSpec();
            if (spec.subcommands().size() > 0 && spec.userObject() instanceof Runnable
                    && !(spec.userObject() instanceof java.util.concurrent.Callable)) {
                continue; // a group such as `gpuforge vm`: its commands have rows of their own
            }
            md.append("| `").append(spec.qualifiedName()).append("` | ").append(cell(String.join(" ",
                    spec.usageMessage().description()))).append(" | ").append(cell(String.join(", ", args(spec))))
                    .append(" | ").append(cell(exitCodes(spec))).append(" |\n");
        }
        return md.toString();
    }

    private static void collect(CommandLine c, List<CommandLine> out) {
        if (c.getCommandName().equals("help")) {
            return;
        }
        out.add(c);
        c.getSubcommands().values().stream().distinct().forEach(sub -> collect(sub, out));
    }

    private static List<String> args(CommandSpec spec) {
        List<String> out = new ArrayList<>();
        for (PositionalParamSpec p : spec.positionalParameters()) {
            out.add("`" + p.paramLabel() + "`");
        }
        for (ArgGroupSpec g : spec.argGroups()) {
            List<String> choices = g.options().stream().map(CliReferenceTest::option).toList();
            out.add((g.exclusive() ? "one of (" + String.join(" or ", choices) + ")" : String.join(", ", choices))
                    + (g.multiplicity().min() > 0 ? " (required)" : ""));
        }
        for (OptionSpec o : spec.options()) {
            if (o.usageHelp() || o.versionHelp() || o.group() != null) {
                continue;
            }
            out.add(option(o) + (o.required() ? " (required)" : ""));
        }
        return out;
    }

    private static String option(OptionSpec o) {
        return "`" + String.join("`/`", o.names()) + (o.arity().max() > 0 ? " " + o.paramLabel() : "") + "`";
    }

    private static String exitCodes(CommandSpec spec) {
        Map<String, String> own = spec.usageMessage().exitCodeList();
        if (own.isEmpty()) {
            return DEFAULT_EXIT_CODES;
        }
        List<String> out = new ArrayList<>();
        own.forEach((code, what) -> out.add(code.strip() + " " + what.strip()));
        return String.join(" · ", out);
    }

    private static String cell(String s) {
        return s.replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ").replaceAll("%n", " ").strip();
    }
}
