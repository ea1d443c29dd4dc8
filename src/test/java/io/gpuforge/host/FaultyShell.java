package io.gpuforge.host;

import java.time.Duration;
import java.util.Optional;

/**
 * A shell that breaks at its n-th command: KILL (the connection dies: this and every later command
 * fail) or FAIL (that one command exits 1, as a failed write or a failing update-grub would).
 */
public final class FaultyShell implements HostShell {

    public enum Mode { KILL, FAIL }

    private final HostShell real;
    private final int failAt;
    private final Mode mode;
    private int calls;
    private boolean dead;

    public FaultyShell(HostShell real, int failAt, Mode mode) {
        this.real = real;
        this.failAt = failAt;
        this.mode = mode;
    }

    public int calls() {
        return calls;
    }

    @Override
    public String describe() {
        return "faulty(" + real.describe() + ")";
    }

    @Override
    public Result run(String command, byte[] stdin, Duration timeout) throws ProbeException {
        Optional<Result> f = fault();
        return f.isPresent() ? f.get() : real.run(command, stdin, timeout);
    }

    @Override
    public Result run(String command, byte[] stdin, Duration timeout, LineListener lines) throws ProbeException {
        Optional<Result> f = fault();
        return f.isPresent() ? f.get() : real.run(command, stdin, timeout, lines);
    }

    /** Counts the command; the injected failure when it is the n-th (or the connection is dead). */
    private Optional<Result> fault() throws ProbeException {
        calls++;
        if (dead) {
            throw new ProbeException("connection lost");
        }
        if (calls == failAt) {
            if (mode == Mode.KILL) {
                dead = true;
                throw new ProbeException("connection lost");
            }
            return Optional.of(new Result(1, new byte[0], "injected failure"));
        }
        return Optional.empty();
    }

    @Override
    public void close() {
        real.close();
    }
}
