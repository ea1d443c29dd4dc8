package io.gpuforge.lab;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gpuforge.app.AppPaths;
import io.gpuforge.cli.common.CliOutput;
import io.gpuforge.cli.GpuForgeCli;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The product's CLI run in-process against the lab machine, as an admin runs it: {@code gpuforge COMMAND …
 * --ssh root@127.0.0.1:PORT --identity KEY --known-hosts FILE --accept-new-host-key}. The known-hosts file
 * is the CLI's own (not the lab shell's), so the CLI meets the host key as new on its first call.
 */
final class LabCli {

    private static final Logger LOG = LoggerFactory.getLogger(LabCli.class);
    private final LabMachine machine;
    private final Path home;

    /** What one command printed and returned. */
    record Run(int code, String out, String err) {
        JsonNode json() throws IOException {
            assertThat(code).as("exit code; stderr: %s; stdout: %s", err, out).isZero();
            return new ObjectMapper().readTree(out);
        }

        String all() {
            return out + err;
        }
    }

    LabCli(LabMachine machine) throws IOException {
        this.machine = machine;
        this.home = Files.createDirectories(machine.workDir().resolve("cli-home"));
    }

    Run run(String... args) {
        List<String> full = new ArrayList<>(List.of(args));
        full.addAll(List.of("--ssh", machine.sshTarget(), "--identity", machine.identity().toString(),
                "--known-hosts", home.resolve("known_hosts").toString(), "--accept-new-host-key"));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = GpuForgeCli.run(full.toArray(new String[0]), AppPaths.underHome(home),
                new CliOutput(new PrintWriter(out), new PrintWriter(err)),
                new ByteArrayInputStream(new byte[0]));
        Run r = new Run(code, out.toString(), err.toString());
        LOG.info("gpuforge {} → exit {}\n{}{}", String.join(" ", args), code, r.out(), r.err());
        return r;
    }

    JsonNode json(String... args) throws IOException {
        return run(args).json();
    }
}
