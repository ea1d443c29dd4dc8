package io.gpuforge.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The {@code gpuforge} command line as a user runs it: a separate JVM with its own home directory (so its
 * {@code ~/.ssh} is a temp dir, never this machine's), its own environment ({@code SSH_AUTH_SOCK}, …) and no terminal.
 */
public final class CliProcess {

    /** How a run ended. */
    public record Result(int exit, String out, String err) {
    }

    private final Path home;
    private final Path appHome;
    private final String umask;
    private final List<String> jvmOptions;
    private final List<String> wrapper;

    /** @param home the user's home directory ({@code user.home}, {@code HOME}); GPUForge's files under appHome */
    public CliProcess(Path home, Path appHome) {
        this(home, appHome, null, List.of(), List.of());
    }

    private CliProcess(Path home, Path appHome, String umask, List<String> jvmOptions, List<String> wrapper) {
        this.home = home;
        this.appHome = appHome;
        this.umask = umask;
        this.jvmOptions = jvmOptions;
        this.wrapper = wrapper;
    }

    /** The same, started from a shell with this umask ({@code 022}: the usual one, group and others may read). */
    public CliProcess withUmask(String mask) {
        return new CliProcess(home, appHome, mask, jvmOptions, wrapper);
    }

    /** The same, started by {@code command} (which runs the rest of its arguments): {@code strace -f -o FILE}. */
    public CliProcess wrappedIn(String... command) {
        return new CliProcess(home, appHome, umask, jvmOptions, List.of(command));
    }

    /**
     * The same with the log file of the shipped {@code logback.xml} (the tests' own configuration logs to the
     * console only).
     */
    public CliProcess withTheShippedLog() {
        return new CliProcess(home, appHome, umask, List.of("-Dlogback.configurationFile=logback.xml"), wrapper);
    }

    /** A command that runs until it is stopped ({@code gpuforge serve}): its output goes to files as it comes. */
    public final class Running implements AutoCloseable {
        private final Process process;
        private final Path out;
        private final Path err;

        private Running(Process process, Path out, Path err) {
            this.process = process;
            this.out = out;
            this.err = err;
        }

        public String out() throws IOException {
            return Files.readString(out);
        }

        public String err() throws IOException {
            return Files.readString(err);
        }

        public long pid() {
            return process.pid();
        }

        /** Sends SIGTERM, as systemd's stop and {@code kill} do, and waits for the exit; returns how it ended. */
        public Result terminate() throws IOException, InterruptedException {
            process.destroy();
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IOException("it did not stop within 60 s of SIGTERM: " + err());
            }
            return new Result(process.exitValue(), out(), err());
        }

        /** Waits for it to end by itself (at most {@code seconds}). */
        public Result await(long seconds) throws IOException, InterruptedException {
            if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IOException("it did not end within " + seconds + " s: " + err());
            }
            return new Result(process.exitValue(), out(), err());
        }

        @Override
        public void close() {
            process.destroyForcibly();
        }
    }

    /** Starts a command with these JVM options (a class-load log…) and returns at once. */
    public Running start(List<String> moreJvmOptions, String... args) throws IOException {
        return start(Map.of(), moreJvmOptions, args);
    }

    /** The same with these environment variables too ({@code CREDENTIALS_DIRECTORY}, as systemd sets it). */
    public Running start(Map<String, String> environment, List<String> moreJvmOptions, String... args)
            throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(List.of("-XX:TieredStopAtLevel=1", "-Xshare:auto", "-Duser.home=" + home,
                "-Dgpuforge.home=" + appHome));
        cmd.addAll(jvmOptions);
        cmd.addAll(moreJvmOptions);
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), "io.gpuforge.boot.Launcher"));
        cmd.addAll(List.of(args));
        Files.createDirectories(home);
        Path out = Files.createTempFile(home, "cli-", ".out");
        Path err = Files.createTempFile(home, "cli-", ".err");
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        pb.environment().clear();
        pb.environment().put("PATH", System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));
        pb.environment().put("HOME", home.toString());
        pb.environment().put("LANG", "C.UTF-8");
        pb.environment().putAll(environment);
        return new Running(pb.start(), out, err);
    }

    public Result run(Map<String, String> environment, String stdin, String... args)
            throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>();
        if (umask != null) {
            cmd.addAll(List.of("/bin/sh", "-c", "umask " + umask + " && exec \"$@\"", "sh"));
        }
        cmd.addAll(wrapper);
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(List.of("-XX:TieredStopAtLevel=1", "-Xshare:auto", "-Duser.home=" + home,
                "-Dgpuforge.home=" + appHome));
        cmd.addAll(jvmOptions);
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), "io.gpuforge.boot.Launcher"));
        cmd.addAll(List.of(args));
        Files.createDirectories(home);
        Path out = Files.createTempFile(home, "cli-", ".out");
        Path err = Files.createTempFile(home, "cli-", ".err");
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile());
        pb.environment().clear();
        pb.environment().put("PATH", System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));
        pb.environment().put("HOME", home.toString());
        pb.environment().put("LANG", "C.UTF-8");
        pb.environment().putAll(environment);
        Process p = pb.start();
        p.getOutputStream().write(stdin.getBytes(StandardCharsets.UTF_8));
        p.getOutputStream().close();
        if (!p.waitFor(180, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IOException("gpuforge " + String.join(" ", args) + " did not finish: " + Files.readString(err));
        }
        Result r = new Result(p.exitValue(), Files.readString(out), Files.readString(err));
        Files.delete(out);
        Files.delete(err);
        return r;
    }
}
