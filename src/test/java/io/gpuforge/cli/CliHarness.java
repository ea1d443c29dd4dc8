package io.gpuforge.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gpuforge.app.AppPaths;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import io.gpuforge.cli.common.CliOutput;

/** The {@code gpuforge} command run in process over a home of the test's own: its output and errors as text. */
final class CliHarness {

    private final Path home;
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private final java.util.Map<String, String> environment;

    CliHarness(Path home) {
        this(home, System.getenv());
    }

    /** With its own environment (a vault passphrase in {@code GPUFORGE_VAULT_PASSPHRASE}, say). */
    CliHarness(Path home, java.util.Map<String, String> environment) {
        this.home = home;
        this.environment = environment;
    }

    /** Runs one command with {@code stdin} as its input; its exit code. */
    int run(String stdin, String... args) {
        out.getBuffer().setLength(0);
        err.getBuffer().setLength(0);
        return GpuForgeCli.run(args, AppPaths.underHome(home), new CliOutput(new PrintWriter(out), new PrintWriter(err)),
                new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)), environment);
    }

    int run(String... args) {
        return run("", args);
    }

    String out() {
        return out.toString();
    }

    String err() {
        return err.toString();
    }

    JsonNode json() throws IOException {
        return new ObjectMapper().readTree(out.toString());
    }
}
