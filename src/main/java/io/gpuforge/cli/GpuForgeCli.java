package io.gpuforge.cli;

import io.gpuforge.app.AppPaths;
import picocli.CommandLine;

/** Builds and runs the {@code gpuforge} command line. */
public final class GpuForgeCli {

    /** Exit code of a command whose feature this build does not have yet. */
    public static final int EXIT_NOT_AVAILABLE = 3;

    private GpuForgeCli() {
    }

    public static int run(String[] args, AppPaths paths) {
        return run(args, paths, CliOutput.system());
    }

    public static int run(String[] args, AppPaths paths, CliOutput output) {
        return run(args, paths, output, System.in);
    }

    public static int run(String[] args, AppPaths paths, CliOutput output, java.io.InputStream stdin) {
        return commandLine(paths, output, stdin).execute(args);
    }

    public static CommandLine commandLine(AppPaths paths, CliOutput output, java.io.InputStream stdin) {
        CliServices services = new CliServices(paths, output, stdin);
        CommandLine cli = new CommandLine(new RootCommand(), new CommandLine.IFactory() {
            @Override
            public <K> K create(Class<K> cls) throws Exception {
                try {
                    return cls.getDeclaredConstructor(CliServices.class).newInstance(services);
                } catch (NoSuchMethodException e) {
                    return CommandLine.defaultFactory().create(cls);
                }
            }
        });
        cli.setOut(output.out());
        // CliOutput shows escape sequences escaped: no colour codes in help
        cli.setColorScheme(CommandLine.Help.defaultColorScheme(CommandLine.Help.Ansi.OFF));
        cli.setErr(output.err());
        cli.setExecutionExceptionHandler((e, cmd, parseResult) -> {
            output.error("gpuforge: " + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()));
            return 1;
        });
        return cli;
    }
}
