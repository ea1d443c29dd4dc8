package io.gpuforge.cli;

import io.gpuforge.app.AppPaths;
import java.io.InputStream;
import java.util.Map;
import picocli.CommandLine;
import io.gpuforge.cli.common.CliOutput;
import io.gpuforge.cli.common.CliServices;

/** Builds and runs the {@code gpuforge} command line. */
public final class GpuForgeCli {

    private GpuForgeCli() {
    }

    public static int run(String[] args, AppPaths paths) {
        return run(args, paths, CliOutput.system());
    }

    public static int run(String[] args, AppPaths paths, CliOutput output) {
        return run(args, paths, output, System.in);
    }

    public static int run(String[] args, AppPaths paths, CliOutput output, InputStream stdin) {
        return run(args, paths, output, stdin, System.getenv());
    }

    /** With the environment the command reads (tests give their own). */
    public static int run(String[] args, AppPaths paths, CliOutput output, InputStream stdin,
                          Map<String, String> environment) {
        CliServices services = new CliServices(paths, output, stdin, environment);
        try {
            return commandLine(services).execute(args);
        } finally {
            services.close();
        }
    }

    public static CommandLine commandLine(AppPaths paths, CliOutput output, InputStream stdin) {
        return commandLine(new CliServices(paths, output, stdin));
    }

    private static CommandLine commandLine(CliServices services) {
        CliOutput output = services.output();
        CommandLine cli = new CommandLine(new RootCommand(), new CommandLine.IFactory() {
            @Override
            public <K> K create(Class<K> cls) throws Exception {
                try {
                    // each command sits in its feature package and keeps its constructor to itself
                    java.lang.reflect.Constructor<K> c = cls.getDeclaredConstructor(CliServices.class);
                    c.setAccessible(true);
                    return c.newInstance(services);
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
            CliFailure f = CliFailure.of(e);
            output.error(cmd.getCommandSpec().qualifiedName() + ": " + f.message());
            return f.exit();
        });
        // a usage error is one line, the way to the help beside it: not the whole help after it
        cli.setParameterExceptionHandler((e, args) -> {
            String name = e.getCommandLine().getCommandSpec().qualifiedName();
            output.error(name + ": " + CliFailure.usage(e) + " (" + name + " --help)");
            return 2;
        });
        return cli;
    }
}
