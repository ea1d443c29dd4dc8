package io.gpuforge.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.app.AppPaths;
import io.gpuforge.cli.common.CliOutput;
import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's tour is a test: every {@code gpuforge} line of a README's code blocks that names the Demo lab runs, in
 * the order shown, in one fresh home, as a new user would type it ({@code [optional parts]} left out, {@code ~} the
 * user's home, questions answered yes), and does what it says: the exit status it promises ("exit 3") or 0, and the
 * line each command is known to print. A Demo lab line with no promise here fails the test: the README may show
 * nothing the tour has not run. Since the Demo lab remembers, each line finds what the ones before it made.
 */
class ReadmeTourTest {

    private static final Pattern TOKEN = Pattern.compile("\"([^\"]*)\"|'([^']*)'|(\\S+)");
    private static final String KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIF9nUH9yZ2UtdGVzdC1rZXktMDAwMDAwMDAwMDAw"
            + " alice@laptop";

    /** What each command of the tour prints when it did what its line says, by its first words. */
    private static final Map<String, String> PROMISES = new LinkedHashMap<>();

    static {
        PROMISES.put("connection add", "saved Demo lab (demo");
        PROMISES.put("inventory", "gpuforge-demo (Proxmox VE 8.4.1): 3 nodes");
        PROMISES.put("passthrough", "Plan digest: ");
        PROMISES.put("vm create", "created cuda-01 (pve-3090/");
        // vm create --start removed it after the first boot already: nothing of the secrets is left
        PROMISES.put("vm remove-snippet", "has no cloud-init snippet of GPUForge's");
        PROMISES.put("vm clone", "clone pve-3090/9000: OK");
        PROMISES.put("vm config", "name: train-01");
        PROMISES.put("gpu watch", "\"name\":\"NVIDIA GeForce RTX");
        PROMISES.put("share check", "GPU 0000:04:00.0 on pve-3090: needs-host-setup");
        PROMISES.put("ct create", "made on pve-3090, running, sharing 0000:04:00.0");
        PROMISES.put("share list", "cuda-1 (running)");
    }

    @TempDir
    Path dir;

    /** One line of the tour: as written, and the words it runs. */
    private record Line(String text, List<String> args, int exit) {
    }

    @ParameterizedTest
    @ValueSource(strings = {"README.md", "README.zh-CN.md"})
    void everyDemoLabLineRunsInOrderAndDoesWhatItSays(String readme) throws Exception {
        Path user = dir.resolve("user");
        Files.createDirectories(user.resolve(".ssh"));
        Files.writeString(user.resolve(".ssh/id_ed25519.pub"), KEY + "\n");
        List<Line> tour = tour(Path.of(readme), user);
        assertThat(tour).as(readme + ": the Demo lab's lines").hasSizeGreaterThan(6);
        assertThat(tour.get(0).args()).as("the tour starts by adding the Demo lab").startsWith("connection", "add");
        List<String> failures = new ArrayList<>();
        for (Line l : tour) {
            String promise = PROMISES.entrySet().stream().filter(e -> String.join(" ", l.args()).startsWith(e.getKey()))
                    .map(Map.Entry::getValue).findFirst().orElse(null);
            if (promise == null) {
                failures.add(l.text() + "\n    no promise known for this line: add what it prints to PROMISES");
                continue;
            }
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            int code = GpuForgeCli.run(l.args().toArray(String[]::new), AppPaths.underHome(dir.resolve("home")),
                    new CliOutput(new PrintWriter(out), new PrintWriter(err)),
                    new ByteArrayInputStream("y\n".getBytes(StandardCharsets.UTF_8)));
            if (code != l.exit() || !out.toString().contains(promise)) {
                failures.add(l.text() + "\n    exit " + code + " (promised " + l.exit() + "), "
                        + (out.toString().contains(promise) ? "printed" : "did not print") + " '" + promise + "'\n    "
                        + out.toString().strip().replace("\n", "\n    ") + "\n    " + err.toString().strip()
                        .replace("\n", "\n    "));
            }
        }
        assertThat(failures).as(readme + ": tour lines that did not do what they say").isEmpty();
    }

    /** The Demo lab's lines of the README's code blocks, in order, as a user types them. */
    private static List<Line> tour(Path readme, Path user) throws Exception {
        List<Line> out = new ArrayList<>();
        boolean code = false;
        for (String raw : Files.readAllLines(readme)) {
            if (raw.strip().startsWith("```")) {
                code = !code;
                continue;
            }
            String line = raw.strip();
            if (!code || !line.startsWith("gpuforge ") || !line.contains("\"Demo lab\"")) {
                continue;
            }
            Matcher comment = Pattern.compile("\\s#\\s(.*)$").matcher(line);
            String says = comment.find() ? comment.group(1) : "";
            String command = line.replaceAll("\\s+#\\s.*$", "").replaceAll("\\[[^\\]]*\\]", " ");
            Matcher exit = Pattern.compile("\\bexit (\\d)\\b").matcher(says);
            List<String> args = new ArrayList<>();
            Matcher m = TOKEN.matcher(command);
            while (m.find()) {
                String w = m.group(1) != null ? m.group(1) : m.group(2) != null ? m.group(2) : m.group(3);
                args.add(w.startsWith("~/") ? user.resolve(w.substring(2)).toString() : w);
            }
            args.remove(0);
            out.add(new Line(line, args, exit.find() ? Integer.parseInt(exit.group(1)) : 0));
        }
        return out;
    }
}
