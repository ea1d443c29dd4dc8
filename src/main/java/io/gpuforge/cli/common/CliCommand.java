package io.gpuforge.cli.common;

import java.util.concurrent.Callable;
import picocli.CommandLine.Mixin;

/**
 * What every {@code gpuforge} command that prints has: the services it runs on (output, context, standard input) and
 * {@code --json} (with {@code --quiet}). A command extends it and says only its own options and work.
 */
public abstract class CliCommand implements Callable<Integer> {

    @Mixin
    protected JsonOption json = new JsonOption();

    protected final CliServices services;

    protected CliCommand(CliServices services) {
        this.services = services;
    }

    /**
     * Says why {@code gpuforge <command>} failed, on one line of stderr, and returns its exit code: 2 for a usage
     * error or a thing named that is not there, else 1 ({@link CliOutput#exit}).
     */
    protected final int failed(String command, Exception e) {
        services.output().error("gpuforge " + command + ": " + e.getMessage());
        return CliOutput.exit(e);
    }
}
