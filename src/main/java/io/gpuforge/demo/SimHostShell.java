package io.gpuforge.demo;

import io.gpuforge.host.HostShell;
import io.gpuforge.host.LocalShell;
import io.gpuforge.host.ProbeException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A shell on a {@link SimHost}, answering what GPUForge sends a host the way that host would. GPUForge runs its
 * scripts as {@code sh -s} with the script on stdin: each runs on this machine with the host's tree as its root
 * argument ({@code sh -s -- TREE}, exactly how GPUForge reads a {@code --sysroot}), so everything it reads and
 * writes is in the tree. A refresh command ({@code update-grub}…) and {@code systemctl reboot} are recorded and
 * simulated; anything else is refused. While the host is down every command fails as a dropped connection does.
 */
final class SimHostShell implements HostShell {

    private static final Pattern SCRIPT = Pattern.compile("(sh|dash|bash) -s");
    private static final Pattern SINCE = Pattern.compile("--since @(\\d+)");
    private static final Pattern UNTIL = Pattern.compile("--until @(\\d+)");
    private static final Pattern TAIL = Pattern.compile("tail -n (\\d+)");
    private static final String REBOOT = "systemctl reboot";
    private static final String REFRESH_TOOLS = "(the simulated host runs its refresh commands itself)";
    private final SimHost host;

    SimHostShell(SimHost host) {
        this.host = host;
    }

    @Override
    public String describe() {
        return "simulated:" + host.node();
    }

    @Override
    public Result run(String command, byte[] stdin, Duration timeout) throws ProbeException {
        return run(command, stdin, timeout, (line, err) -> { });
    }

    @Override
    public Result run(String command, byte[] stdin, Duration timeout, LineListener lines) throws ProbeException {
        if (!host.up()) {
            throw new ProbeException("ssh: connect to host " + host.node() + " port 22: No route to host (it is"
                    + " rebooting, or down)");
        }
        String c = command.strip().replaceFirst("^sudo -n ", "");
        String input = stdin == null ? "" : new String(stdin, StandardCharsets.UTF_8);
        if (c.equals(REBOOT) || (SCRIPT.matcher(c).matches() && input.strip().equals(REBOOT))) {
            host.reboot(REBOOT);
            return new Result(0, new byte[0], "");
        }
        if (SCRIPT.matcher(c).matches() && SimBoot.REFRESH.contains(input.strip())) {
            try {
                return host.refresh(input.strip(), lines);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new ProbeException("Interrupted while '" + input.strip() + "' ran on " + describe(), e);
            }
        }
        if (SCRIPT.matcher(c).matches() && input.contains("setsid sh") && input.contains("command -v ")) {
            // the launcher of a detached commit that runs refresh commands: they must never run on this machine
            // (systemctl here is not the host's), so the commit goes over the connection, command by command
            return new Result(0, ("missing " + REFRESH_TOOLS + "\n").getBytes(StandardCharsets.UTF_8), "");
        }
        if (SCRIPT.matcher(c).matches() && input.contains("journalctl -k")) {
            // the host's kernel log is the simulated host's, never this machine's
            Matcher since = SINCE.matcher(input);
            Matcher until = UNTIL.matcher(input);
            Matcher tail = TAIL.matcher(input);
            try {
                return new Result(0, host.journal(since.find() ? Long.parseLong(since.group(1)) * 1000 : 0,
                        until.find() ? Long.parseLong(until.group(1)) * 1000 + 999 : Long.MAX_VALUE,
                        tail.find() ? Integer.parseInt(tail.group(1)) : Integer.MAX_VALUE)
                        .getBytes(StandardCharsets.UTF_8), "");
            } catch (java.io.IOException e) {
                throw new ProbeException("The kernel log of " + host.node() + " cannot be read: " + e.getMessage(), e);
            }
        }
        if (SCRIPT.matcher(c).matches()) {
            try (LocalShell local = new LocalShell()) {
                return local.run(c + " -- '" + host.root().toAbsolutePath().toString().replace("'", "'\\''") + "'",
                        stdin, timeout, lines);
            }
        }
        String name = c.split("\\s+")[0];
        return new Result(127, new byte[0], "sh: 1: " + name + ": not found (the simulated host of the Demo lab runs"
                + " GPUForge's scripts, its refresh commands and systemctl reboot only)");
    }

    @Override
    public void close() {
        // nothing held
    }
}
