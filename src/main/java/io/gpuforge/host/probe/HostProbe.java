package io.gpuforge.host.probe;

import io.gpuforge.host.HostShell;
import io.gpuforge.host.LocalShell;
import io.gpuforge.host.ProbeException;
import io.gpuforge.host.ProbeStream;
import io.gpuforge.host.RemoteFiles;

import io.gpuforge.domain.host.HostFacts;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * Reads a host's {@link HostFacts} in ONE round trip: the POSIX-sh probe script is sent over one exec
 * channel (or one local process) and prints everything in one stream. With a sysroot the same script
 * reads a directory that mirrors a host's {@code /}.
 */
public final class HostProbe {

    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(60);
    private static final String SCRIPT = loadScript();

    private static String loadScript() {
        try (InputStream in = HostProbe.class.getResourceAsStream("/host/probe.sh")) {
            if (in == null) {
                throw new IllegalStateException("probe.sh is missing from the application");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException("probe.sh cannot be read", e);
        }
    }

    public static String script() {
        return SCRIPT;
    }

    /** This machine, or a sysroot read on this machine. */
    public HostFacts probeLocal(Optional<Path> sysroot) throws ProbeException {
        if (sysroot.isPresent() && !Files.isDirectory(sysroot.get())) {
            throw new ProbeException("The sysroot " + sysroot.get() + " is not a directory");
        }
        try (LocalShell shell = new LocalShell()) {
            String source = sysroot.map(p -> "sysroot:" + p).orElse("local");
            return probe(shell, sysroot.map(p -> p.toAbsolutePath().toString()), false, source);
        }
    }

    /** A host over SSH; not root → {@code sudo -n}, and without sudo the facts root can read are "unknown". */
    public HostFacts probe(HostShell shell, boolean useSudo) throws ProbeException {
        return probe(shell, Optional.empty(), useSudo, shell.describe());
    }

    private HostFacts probe(HostShell shell, Optional<String> root, boolean useSudo, String source)
            throws ProbeException {
        return probe(shell, root, useSudo, source, "sh");
    }

    /** With a given POSIX shell ({@code sh}, {@code dash}, {@code busybox sh}); tests run every one. */
    HostFacts probe(HostShell shell, Optional<String> root, boolean useSudo, String source, String interpreter)
            throws ProbeException {
        // the root is the script's argument, never a variable: the host's environment must not redirect the probe
        String command = interpreter + " -s" + root.map(r -> " -- " + RemoteFiles.q(r)).orElse("");
        byte[] stdin = SCRIPT.getBytes(StandardCharsets.UTF_8);
        HostShell.Result r = shell.run((useSudo ? "sudo -n " : "") + command, stdin, DEFAULT_TIMEOUT);
        boolean sudoFailed = useSudo && r.exitCode() != 0 && r.stdout().length == 0;
        if (sudoFailed) {
            r = shell.run(command, stdin, DEFAULT_TIMEOUT);
        }
        if (r.exitCode() != 0 && r.stdout().length == 0) {
            throw new ProbeException("The probe failed on " + shell.describe() + " (exit " + r.exitCode() + "): "
                    + r.stderr().strip());
        }
        ProbeStream stream = ProbeStream.parse(new String(r.stdout(), StandardCharsets.UTF_8));
        HostFacts facts = new FactsAssembler(stream).assemble(source);
        if (sudoFailed) {
            facts = facts.withSource(facts.source(), List.of("not run as root: sudo -n needs a password on "
                    + shell.describe() + "; facts only root can read are unknown"));
        }
        return facts;
    }

    /** Parses saved probe output (a support bundle): the same facts as a live probe. */
    public static HostFacts fromOutput(String output, String source) throws ProbeException {
        return new FactsAssembler(ProbeStream.parse(output)).assemble(source);
    }
}
