package io.gpuforge.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.app.AppPaths;
import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;
import io.gpuforge.cli.common.CliOutput;

/**
 * Every {@code gpuforge} command line the READMEs show in their code blocks parses as the code declares the commands:
 * a README shows only commands and options that exist. Schematic lines are read as a person would: {@code [--json]}
 * is the option, {@code list|start|stop …} each of those commands by name, {@code | gpu watch …} a second command,
 * {@code < FILE} a redirection, {@code # …} a comment.
 */
class ReadmeCommandsTest {

    private static final Pattern TOKEN = Pattern.compile("\"([^\"]*)\"|'([^']*)'|(\\S+)");

    @TempDir
    Path home;

    @ParameterizedTest
    @ValueSource(strings = {"README.md", "README.zh-CN.md"})
    void everyCommandLineOfTheReadmeParses(String readme) throws Exception {
        List<String> failures = new ArrayList<>();
        int checked = 0;
        boolean code = false;
        for (String raw : Files.readAllLines(Path.of(readme))) {
            if (raw.strip().startsWith("```")) {
                code = !code;
                continue;
            }
            if (!code) {
                continue;
            }
            String line = raw.replaceAll("\\s+#\\s.*$", "").strip();
            for (String segment : line.split("\\s\\|\\s")) {
                List<String> words = words(segment.replaceAll("\\s<\\s*\\S+", ""));
                if (words.isEmpty()) {
                    continue;
                }
                if (words.get(0).equals("gpuforge") || words.get(0).equals("./gpuforge")) {
                    words.remove(0);
                } else if (!segment.equals(line)) {
                    if (!isCommand(words.get(0))) {
                        continue; // pbpaste | gpuforge …
                    }
                } else {
                    continue;
                }
                checked++;
                String problem = check(words);
                if (problem != null) {
                    failures.add(raw.strip() + "\n    " + problem);
                }
            }
        }
        assertThat(checked).as("command lines found in " + readme).isGreaterThan(15);
        assertThat(failures).as(readme + ": command lines that do not parse").isEmpty();
    }

    private CommandLine cli() {
        return GpuForgeCli.commandLine(AppPaths.underHome(home), new CliOutput(new PrintWriter(new StringWriter()),
                new PrintWriter(new StringWriter())), new ByteArrayInputStream(new byte[0]));
    }

    private boolean isCommand(String word) {
        return cli().getSubcommands().containsKey(word);
    }

    /** Null when the words parse; else what is wrong. */
    private String check(List<String> words) {
        boolean schematic = words.contains("…");
        List<String> args = new ArrayList<>();
        CommandLine at = cli();
        for (int i = 0; i < words.size(); i++) {
            String w = words.get(i);
            if (w.equals("…")) {
                continue;
            }
            if (w.contains("|") && !w.startsWith("-") && at.getSubcommands().containsKey(w.split("\\|")[0])) {
                for (String alternative : w.split("\\|")) {
                    if (!at.getSubcommands().containsKey(alternative)) {
                        return "no command '" + alternative + "' under '" + at.getCommandName() + "'";
                    }
                }
                return null; // list|start|stop …: each command exists; their arguments are not shown
            }
            if (at.getSubcommands().containsKey(w)) {
                at = at.getSubcommands().get(w);
            }
            args.add(w);
        }
        if (schematic) {
            return null;
        }
        try {
            cli().parseArgs(args.toArray(String[]::new));
            return null;
        } catch (CommandLine.ParameterException e) {
            return e.getMessage();
        }
    }

    /** The words of a line as a shell splits them; {@code [x y]} stands for {@code x y}. */
    private static List<String> words(String segment) {
        List<String> out = new ArrayList<>();
        Matcher m = TOKEN.matcher(segment.replace("[", " ").replace("]", " "));
        while (m.find()) {
            out.add(m.group(1) != null ? m.group(1) : m.group(2) != null ? m.group(2) : m.group(3));
        }
        return out;
    }
}
