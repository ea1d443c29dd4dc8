package io.gpuforge.cli;

import picocli.CommandLine.Option;

/** The {@code --json} switch every command has. */
public final class JsonOption {

    @Option(names = "--json", description = "Print the result as JSON.")
    boolean json;

    public boolean enabled() {
        return json;
    }
}
