package io.gpuforge.host;

import java.time.Duration;

/**
 * A shell that breaks at its n-th command: KILL (the connection dies: this and every later command
 * fail) or FAIL (that one command exits 1, as a failed write or a failing update-grub would).
 */
final class FaultyShell implements HostShell {

    enum Mode { KILL, FAIL }

    private final HostShell real;
    private final int failAt;
    private final Mode mode;
    private int calls;
    private boolean dead;

    FaultyShell(HostShell real, int failAt, Mode mode) {
        this.real = real;
        this.failAt = failAt;
        this.mode = mode;
    }

    int calls() {
        return calls;
    }

    @Override
    public String describe() {
        return "faulty(" + real.describe() + ")";
    }

    @Override
    public Result run(String command, byte[] stdin, Duration timeout) throws ProbeException {
        calls++;
        if (dead) {
            throw new ProbeException("connection lost");
        }
        if (calls == failAt) {
            if (mode == Mode.KILL) {
                dead = true;
                throw new ProbeException("connection lost");
            }
            return new Result(1, new byte[0], "injected failure");
        }
        return real.run(command, stdin, timeout);
    }

    @Override
    public void close() {
        real.close();
    }
}
