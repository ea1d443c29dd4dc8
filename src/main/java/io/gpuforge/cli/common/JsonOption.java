package io.gpuforge.cli.common;

import picocli.CommandLine.Option;

/**
 * The output switches every command has: {@code --json} (the result as JSON, nothing else on stdout) and
 * {@code --quiet} (no progress lines: the result, its notes and errors only).
 */
public final class JsonOption {

    @Option(names = "--json", description = "Print the result as JSON.")
    boolean json;

    @Option(names = "--quiet", description = "No progress lines: the result and errors only.")
    public boolean quiet;

    public boolean enabled() {
        return json;
    }

    /** Whether progress lines are printed: not with --json (stdout holds the JSON alone) nor with --quiet. */
    public boolean progress() {
        return !json && !quiet;
    }
}
